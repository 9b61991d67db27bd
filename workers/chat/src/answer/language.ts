import { z } from 'zod';

/** The languages chat answers in: Chinese for a question with Chinese characters, else English. */
export type Language = 'zh' | 'en';

/** Han ideographs (CJK Unified Ideographs and their extensions, compatibility forms). */
const HAN = /\p{Script=Han}/u;

/** The question's language: any Chinese character makes it Chinese (the original's users). */
export function languageOf(question: string): Language {
  return HAN.test(question) ? 'zh' : 'en';
}

/**
 * The stable codes of the stream's `error` messages: clients may translate by code; the text
 * is already in the question's language.
 */
export const ERROR_CODES = [
  'no_relevant_knowledge',
  'files_unavailable',
  'collections_unavailable',
  'knowledge_unavailable',
  'model_failed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorTexts = Record<Language, Record<ErrorCode, string>>;

/** Defaults; CHAT_MESSAGES overrides any of them. Short and non-leaking: causes go to the log. */
export const DEFAULT_ERROR_TEXTS: ErrorTexts = {
  en: {
    no_relevant_knowledge: 'Sorry, no relevant information was found, so no answer can be given.',
    files_unavailable:
      'Sorry, the chosen files are not available (deleted, or not processed yet), so no answer can be given.',
    collections_unavailable:
      'Sorry, the chosen collection is not available to you (deleted, or you are not a member), so no answer can be given.',
    knowledge_unavailable: 'Sorry, the knowledge base is unavailable right now.',
    model_failed: 'Sorry, the answer could not be completed. Please try again.',
  },
  zh: {
    no_relevant_knowledge: '非常抱歉，未能检索到相关信息，无法回答',
    files_unavailable: '非常抱歉，所选文件不可用（已删除或尚未处理完成），无法回答',
    collections_unavailable: '非常抱歉，所选资料集不可用（已删除或你不是其成员），无法回答',
    knowledge_unavailable: '非常抱歉，知识库暂时不可用',
    model_failed: '非常抱歉，回答未能完成，请重试',
  },
};

const overrides = z
  .object(
    Object.fromEntries(
      (['en', 'zh'] as const).map((lang) => [
        lang,
        z
          .object(
            Object.fromEntries(ERROR_CODES.map((code) => [code, z.string().min(1).optional()])),
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
    .transform((given): ErrorTexts => {
      const pick = (lang: Language) => ({
        ...DEFAULT_ERROR_TEXTS[lang],
        ...(Object.fromEntries(
          Object.entries(given[lang] ?? {}).filter(([, text]) => text !== undefined),
        ) as Partial<Record<ErrorCode, string>>),
      });
      return { en: pick('en'), zh: pick('zh') };
    }),
);
