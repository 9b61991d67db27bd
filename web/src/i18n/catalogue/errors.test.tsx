import { describe, expect, it } from 'vitest';
import { ERRORS, errorText, type ErrorCode } from '#shared/errors/catalogue';
import { errors } from './errors';

describe('the page’s error texts', () => {
  it('has every code of the service’s catalogue, in its words, in both languages', () => {
    // validation_failed is the page's own: it names the invalid fields.
    const codes = (Object.keys(ERRORS) as ErrorCode[]).filter((c) => c !== 'validation_failed');
    for (const code of codes) {
      expect(errors.en[code]).toBe(errorText(code, 'en'));
      expect(String(errors.zh[code]).startsWith(errorText(code, 'zh'))).toBe(true);
    }
  });

  it('ends a Chinese chat refusal with a full stop, as every sentence on the page', () => {
    expect(errorText('no_relevant_knowledge', 'zh').endsWith('。')).toBe(false);
    expect(errors.zh.no_relevant_knowledge).toBe(`${errorText('no_relevant_knowledge', 'zh')}。`);
    expect(errors.zh.unauthenticated).toBe(errorText('unauthenticated', 'zh'));
  });

  it('keeps the page’s own: an unreachable service, and the invalid fields by name', () => {
    expect(errors.en.network).toMatch(/could not be reached/);
    expect(errors.zh.network).toMatch(/无法连接/);
    expect(errors.en.validation_failed(['username'])).toBe('Not valid: username.');
  });
});
