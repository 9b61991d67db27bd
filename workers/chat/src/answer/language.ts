import { z } from 'zod';
import { CHAT_ERROR_CODES, ERRORS, type ChatErrorCode } from '#shared/errors/catalogue';
import { LANGUAGES, type Language } from '#shared/i18n/language';

export { languageOf, type Language } from '#shared/i18n/language';

/** The words of the stream's `error` messages, by language and code. */
export type ErrorTexts = Record<Language, Record<ChatErrorCode, string>>;

/** The catalogue's words; CHAT_MESSAGES overrides any of them. */
export const DEFAULT_ERROR_TEXTS = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    Object.fromEntries(CHAT_ERROR_CODES.map((code) => [code, ERRORS[code][language]])),
  ]),
) as ErrorTexts;

const overrides = z
  .object(
    Object.fromEntries(
      LANGUAGES.map((language) => [
        language,
        z
          .object(
            Object.fromEntries(
              CHAT_ERROR_CODES.map((code) => [code, z.string().min(1).optional()]),
            ),
          )
          .strict()
          .optional(),
      ]),
    ),
  )
  .strict();

/**
 * CHAT_MESSAGES: a JSON object `{"zh": {"<code>": "text"}, "en": {…}}` overriding some of the
 * defaults. Unknown languages or codes are refused (a typo would otherwise be silently ignored).
 */
export const errorTextsConfig = z.preprocess(
  (value) => (value === '' || value === undefined ? '{}' : value),
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(overrides)
    .transform(
      (given): ErrorTexts =>
        Object.fromEntries(
          LANGUAGES.map((language) => [
            language,
            {
              ...DEFAULT_ERROR_TEXTS[language],
              ...Object.fromEntries(
                Object.entries(given[language] ?? {}).filter(([, text]) => text !== undefined),
              ),
            },
          ]),
        ) as ErrorTexts,
    ),
);
