import { describe, expect, it } from 'vitest';
import { chatConfig } from '../config';
import { DEFAULT_ERROR_TEXTS, errorTextsConfig, languageOf } from './language';

describe('languageOf', () => {
  it.each([
    ['总结这份文件的主要措施', 'zh'],
    ['What does 住房补贴 cover?', 'zh'],
    ['住房補貼是多少', 'zh'],
    ['What is the refund rule?', 'en'],
    ['¿Cuál es la regla?', 'en'],
    ['１２３？', 'en'],
  ] as const)('%s → %s', (question, language) => {
    expect(languageOf(question)).toBe(language);
  });
});

describe('CHAT_MESSAGES', () => {
  it('empty or unset: the built-in texts, the Chinese refusal being the original’s', () => {
    expect(errorTextsConfig.parse('')).toEqual(DEFAULT_ERROR_TEXTS);
    expect(errorTextsConfig.parse(undefined)).toEqual(DEFAULT_ERROR_TEXTS);
    expect(DEFAULT_ERROR_TEXTS.zh.no_relevant_knowledge).toBe(
      '非常抱歉，未能检索到相关信息，无法回答',
    );
  });

  it('overrides the texts it names and keeps the others', () => {
    const texts = errorTextsConfig.parse(
      JSON.stringify({ zh: { no_relevant_knowledge: '知识库中没有答案' }, en: {} }),
    );
    expect(texts.zh.no_relevant_knowledge).toBe('知识库中没有答案');
    expect(texts.zh.model_failed).toBe(DEFAULT_ERROR_TEXTS.zh.model_failed);
    expect(texts.en).toEqual(DEFAULT_ERROR_TEXTS.en);
  });

  it.each([
    ['not JSON', '{zh:'],
    ['an unknown language', '{"fr":{"model_failed":"Désolé"}}'],
    ['an unknown code', '{"en":{"no_answer":"Sorry"}}'],
    ['an empty text', '{"en":{"model_failed":""}}'],
  ])('refuses %s, naming the variable but not its value', (_, value) => {
    const config = chatConfig({ CHAT_MESSAGES: value });
    expect(() => config.answer).toThrow(/CHAT_MESSAGES/);
    try {
      void config.answer;
    } catch (err) {
      expect(String((err as Error).message)).not.toContain(value);
    }
  });
});

describe('the context budget', () => {
  it('defaults to 24,000 characters and 30 chunks; values beyond knowledge’s limits are refused', () => {
    expect(chatConfig({}).answer).toMatchObject({ contextChars: 24_000, filesTop: 30 });
    expect(chatConfig({ CHAT_CONTEXT_CHARS: '8000', CHAT_FILES_TOP: '12' }).answer).toMatchObject({
      contextChars: 8000,
      filesTop: 12,
    });
    expect(() => chatConfig({ CHAT_FILES_TOP: '51' }).answer).toThrow(/CHAT_FILES_TOP/);
    expect(() => chatConfig({ CHAT_CONTEXT_CHARS: '0' }).answer).toThrow(/CHAT_CONTEXT_CHARS/);
  });
});
