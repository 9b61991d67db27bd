/**
 * Document numbers (文号): an issuer's code, the year in brackets, a serial and 号 —
 * 川办规〔2025〕6号, 青政办发［2024］17号, 国发(2024)1号. Normalised to 〔〕 and ASCII digits
 * (the text is NFKC'd first, normaliseText).
 */

/** The code: a few Han characters (川办规, 青政办发, 青财社). */
const CODE = '\\p{Script=Han}{1,10}';
const OPEN = '[〔\\[(（［【]';
const CLOSE = '[〕\\])）］】]';
const NUMBER_SOURCE = `(${CODE})\\s*${OPEN}\\s*((?:19|20)\\d{2})\\s*${CLOSE}\\s*(\\d{1,5})\\s*号`;

/** A line that is only a document number (as under a red header; `签发人：…` may follow). */
// A regulation prints it in brackets under its title: （青政规〔2024〕2号）.
const NUMBER_LINE = new RegExp(`^[(（]?${NUMBER_SOURCE}[)）]?(?:\\s*签发人[:：].*)?$`, 'u');

/** Anywhere in a text, for relations. */
export const DOC_NUMBER_IN_TEXT = new RegExp(NUMBER_SOURCE, 'gu');

const format = (code: string, year: string, serial: string) =>
  `${code}〔${year}〕${Number(serial)}号`;

/** The number a whole line consists of, normalised; null for any other line. */
export function docNumberLine(line: string): string | null {
  const match = NUMBER_LINE.exec(line.trim());
  return match ? format(match[1]!, match[2]!, match[3]!) : null;
}

/**
 * Words that run into a number's code in a sentence (原青政办发〔2024〕17号, 根据国发〔…〕):
 * taken off the front of the code.
 */
const LEADING_WORDS =
  /^(?:.*?(?:同时|根据|依据|按照|参照|对照|贯彻|落实|执行|原|将|对|把|和|及|与|即|的))/u;

/** A number found inside a sentence: its code without the words before it. */
export function docNumberInSentence(match: RegExpExecArray): string {
  const code = match[1]!.replace(LEADING_WORDS, '');
  return format(code === '' ? match[1]! : code, match[2]!, match[3]!);
}

/** Any printed form of a number, normalised: for a person's input and comparisons. */
export function normaliseDocNumber(text: string): string {
  const nfkc = text.normalize('NFKC').trim();
  const match = new RegExp(`^${NUMBER_SOURCE}$`, 'u').exec(nfkc.replace(/\s+/g, ''));
  return match ? format(match[1]!, match[2]!, match[3]!) : nfkc;
}

/** An English reference number: HR-POL-014, POL/2025/03, ISO 9001 is not one (no digits run). */
export const REFERENCE_VALUE = /^([A-Z][A-Z0-9]*(?:[-/.][A-Z0-9]+)+)\b/;
