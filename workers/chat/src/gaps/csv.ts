import type { z } from 'zod';
import type { GapReport } from '#shared/contracts/answer-upkeep';

type Report = z.output<typeof GapReport>;

/** English headers (stable for scripts); the questions and file names stay as asked. */
export const CSV_HEADERS = [
  'group',
  'count',
  'refused',
  'unhelpful',
  'unsupported',
  'latest',
  'best_similarity',
  'questions',
  'closest_passages',
  'resolved',
  'ids',
] as const;

// A cell that a spreadsheet would run as a formula starts with one of these: quoted with a
// leading apostrophe (OWASP's CSV-injection advice), since questions are anyone's words.
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The report as CSV, one row per group: UTF-8 with a byte-order mark so that spreadsheet
 * programs read Chinese right, CRLF line ends (RFC 4180). Lists inside a cell are one per line.
 */
export function gapsCsv(report: Report): string {
  const lines = [CSV_HEADERS.join(',')];
  report.groups.forEach((group, i) => {
    const passages = group.closest_passages.map(
      (p) =>
        `${p.file_name} p. ${p.page}${p.similarity === null ? '' : ` (${p.similarity.toFixed(3)})`}`,
    );
    lines.push(
      [
        cell(i + 1),
        cell(group.count),
        cell(group.kinds.refused),
        cell(group.kinds.unhelpful),
        cell(group.kinds.unsupported),
        cell(group.latest),
        cell(group.best_similarity === null ? null : Number(group.best_similarity.toFixed(3))),
        cell(group.questions.join('\n')),
        cell(passages.join('\n')),
        cell(group.resolved),
        cell(group.ids.join(' ')),
      ].join(','),
    );
  });
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
