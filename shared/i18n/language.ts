/**
 * The languages the service speaks, one code scheme for the workers and the web app: `zh`
 * (Simplified Chinese, first: the people this is for read Chinese first) and `en`. A chat
 * answer is in its question's language; the web app shows the one its reader chose.
 */
export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export const isLanguage = (value: unknown): value is Language =>
  LANGUAGES.includes(value as Language);

/**
 * The BCP 47 tag of a language where a full tag is wanted (`<html lang>`, so that a browser
 * picks Simplified Chinese glyphs for Han characters shared with Japanese and Traditional).
 */
export const LANGUAGE_TAG: Record<Language, string> = { zh: 'zh-CN', en: 'en' };
