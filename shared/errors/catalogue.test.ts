import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../i18n/language.ts';
import { CHAT_ERROR_CODES, ERRORS, REFUSAL_CODES, errorDetail, errorText } from './catalogue.ts';
import { accessErrors } from './catalogue/access.ts';
import { answerErrors, chatErrors, refusalErrors } from './catalogue/chat.ts';
import { collectionErrors } from './catalogue/collections.ts';
import { documentErrors } from './catalogue/documents.ts';
import { requestErrors } from './catalogue/request.ts';
import { serviceErrors } from './catalogue/service.ts';

const GROUPS = {
  requestErrors,
  accessErrors,
  collectionErrors,
  documentErrors,
  chatErrors,
  refusalErrors,
  answerErrors,
  serviceErrors,
};
const HAN = /\p{Script=Han}/u;

describe('the error catalogue', () => {
  it('names every code in one group only (a spread would silently keep the last)', () => {
    const owners = new Map<string, string[]>();
    for (const [group, entries] of Object.entries(GROUPS)) {
      for (const code of Object.keys(entries))
        owners.set(code, [...(owners.get(code) ?? []), group]);
    }
    const twice = [...owners].filter(([, groups]) => groups.length > 1);
    expect(twice).toEqual([]);
    expect(Object.keys(ERRORS).length).toBe(owners.size);
  });

  it('has a code in snake case, a status and words in every language for each entry', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(code, code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      for (const language of LANGUAGES)
        expect(entry[language].trim(), `${code}.${language}`).not.toBe('');
      expect(HAN.test(entry.zh), `${code}.zh is Chinese`).toBe(true);
      expect(HAN.test(entry.en), `${code}.en is English`).toBe(false);
    }
  });

  it('addresses the reader as 您, as a government office writes', () => {
    const informal = Object.entries(ERRORS).filter(([, entry]) => entry.zh.includes('你'));
    expect(informal.map(([code]) => code)).toEqual([]);
    expect(ERRORS.quota_exceeded.zh).toMatch(/^您今天的提问次数/);
  });

  it('gives failed requests an error status, and refusals (answers) 200', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      if ((REFUSAL_CODES as string[]).includes(code)) expect(entry.status, code).toBe(200);
      else expect(entry.status, code).toBeGreaterThanOrEqual(400);
    }
  });

  it('lists the chat stream’s codes: the refusals and the broken-off answers', () => {
    expect(CHAT_ERROR_CODES).toEqual([
      'no_relevant_knowledge',
      'files_unavailable',
      'collections_unavailable',
      'knowledge_unavailable',
      'model_failed',
    ]);
  });

  it('tells the uploader of a format it cannot read to save it as .docx or PDF', () => {
    expect(errorText('unsupported_format', 'zh')).toContain(
      '旧版 Word（.doc）、WPS（.wps）或 OFD 文件，请先另存为 .docx 或 PDF 再上传',
    );
    expect(errorText('unsupported_format', 'en')).toContain(
      'If it is an older Word (.doc), WPS (.wps) or OFD file, save it as .docx or PDF first',
    );
  });

  it('keeps the original’s refusal word for word, and the wire detail apart where it differs', () => {
    expect(errorText('no_relevant_knowledge', 'zh')).toBe('非常抱歉，未能检索到相关信息，无法回答');
    expect(errorDetail('not_found')).toBe(ERRORS.not_found.en);
    for (const [code, entry] of Object.entries(ERRORS)) {
      if ('detail' in entry) expect(entry.detail, code).not.toBe(entry.en);
    }
  });
});
