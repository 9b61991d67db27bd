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

/** Han ideographs (CJK Unified Ideographs and their extensions, compatibility forms). */
const HAN = /\p{Script=Han}/u;

/**
 * The language of a text a person wrote (a question, a search): any Chinese character makes it
 * Chinese (the people this is for). What they are told back is in it.
 */
export function languageOf(text: string): Language {
  return HAN.test(text) ? 'zh' : 'en';
}
