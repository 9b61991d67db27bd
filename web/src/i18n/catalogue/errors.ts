import { ERRORS, errorText, type ErrorCode } from '#shared/errors/catalogue';
import type { Language } from '#shared/i18n/language';
import { translations } from '../define';
import { formatList } from '../format';

/**
 * What the service's problem `code`s mean, in words for the page. Keyed by the stable code,
 * never by the English `detail`: a code not listed here shows the service's own detail (see
 * ../failure.ts). The service's codes take their words from its error catalogue; the entries
 * below are the page's own.
 */
const pageErrors = translations({
  en: {
    /** No answer at all: the request never reached the service. */
    network: 'The service could not be reached. Check your connection and try again.',
    /** With the names of the invalid fields, when the service lists them. */
    validation_failed: (fields: readonly string[]) =>
      fields.length > 0
        ? `Not valid: ${formatList(fields)}.`
        : 'Some of what was entered is not valid.',
  },
  zh: {
    network: '无法连接到服务。请检查网络连接后重试。',
    validation_failed: (fields) =>
      fields.length > 0 ? `以下内容无效：${formatList(fields)}。` : '输入的部分内容无效。',
  },
});

const CODES = Object.keys(ERRORS) as ErrorCode[];

/**
 * The chat stream's Chinese refusals are worded as the original service sent them, without a
 * full stop; on the page every message is a sentence.
 */
const asSentence = (text: string, language: Language) =>
  language === 'zh' && !/[。！？）]$/.test(text) ? `${text}。` : text;

function catalogueErrors(language: Language): Record<ErrorCode, string> {
  return Object.fromEntries(
    CODES.map((code) => [code, asSentence(errorText(code, language), language)]),
  ) as Record<ErrorCode, string>;
}

export const errors = {
  en: { ...catalogueErrors('en'), ...pageErrors.en },
  zh: { ...catalogueErrors('zh'), ...pageErrors.zh },
};
