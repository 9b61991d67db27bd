import { describe, expect, it } from 'vitest';
import type { AppError } from '#shared/errors/app-error';
import { conversationOf, filtersOf, groundingOf } from './request';

const ID = '0b8f6c1e-4a52-4c1e-9d7a-3f2b1a0c9e88';
const body = (messages: { role: string; content: unknown }[]) =>
  ({ model: 'kbchat', messages }) as Parameters<typeof conversationOf>[0];

describe('groundingOf', () => {
  it('reads the three grounding modes', () => {
    expect(groundingOf('kbchat')).toEqual({ fileIds: undefined, collectionIds: undefined });
    expect(groundingOf(`kbchat-files:${ID.toUpperCase()},${ID}`)).toEqual({
      fileIds: [ID],
      collectionIds: undefined,
    });
    expect(groundingOf(`kbchat-collections:${ID}`)).toEqual({
      fileIds: undefined,
      collectionIds: [ID],
    });
  });

  it.each(['gpt-4o', 'kbchat-files:', 'kbchat-files:x', 'KBCHAT', `kbchat-collections:,,`])(
    '%s is model_not_found',
    (model) => {
      expect(() => groundingOf(model)).toThrow(
        expect.objectContaining({ status: 404, code: 'model_not_found' }) as AppError,
      );
    },
  );
});

describe('conversationOf', () => {
  it('takes the last user message as the question, earlier turns as history, system as instructions', () => {
    expect(
      conversationOf(
        body([
          { role: 'assistant', content: 'Hello! (dropped: answers no question)' },
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Q1' },
          { role: 'assistant', content: [{ type: 'text', text: 'A1' }] },
          { role: 'user', content: 'Q2 unanswered' },
          { role: 'developer', content: 'Use bullets.' },
          { role: 'user', content: [{ type: 'text', text: 'Q3' }] },
        ]),
        4000,
      ),
    ).toEqual({
      question: 'Q3',
      turns: [
        { question: 'Q1', answer: 'A1', answered: true },
        { question: 'Q2 unanswered', answer: '', answered: false },
      ],
      instructions: 'Be brief.\n\nUse bullets.',
    });
  });

  it('refuses a conversation that does not end with a question, or one too long', () => {
    const refused = (messages: { role: string; content: unknown }[], max = 10) => {
      try {
        conversationOf(body(messages), max);
      } catch (err) {
        return (err as AppError).code;
      }
      return undefined;
    };
    expect(
      refused([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ]),
    ).toBe('invalid_messages');
    expect(refused([{ role: 'user', content: ' \n ' }])).toBe('invalid_messages');
    expect(refused([{ role: 'user', content: 'x'.repeat(11) }])).toBe('prompt_too_long');
    expect(
      refused([
        { role: 'system', content: 'y'.repeat(11) },
        { role: 'user', content: 'q' },
      ]),
    ).toBe('instructions_too_long');
  });
});

describe('filtersOf', () => {
  it('reads the kbchat extension’s filters, and nothing without them', () => {
    expect(filtersOf({ kbchat: { filters: { issuer: '杭州', in_force: true } } })).toEqual({
      filters: { issuer: '杭州', in_force: true },
    });
    expect(filtersOf({ kbchat: { filters: {} } })).toEqual({ filters: {} });
    expect(filtersOf({ kbchat: null })).toEqual({});
    expect(filtersOf({})).toEqual({});
  });
});
