import { LABELS, type Labels } from './record-labels';
import { recordTime } from './record-time';

/**
 * A conversation as the record an office keeps: each question and answer with its time and
 * model, which sentences of the answer were found in its sources, and each source's file, page
 * and passage as it was indexed. Pure: the handler (./export.ts) gathers the data, this only
 * writes the Markdown, so that what the record says is tested without a stack.
 */

export type RecordLanguage = 'zh' | 'en';

/** What became of a source's passage when the record was made. */
export type Passage =
  | {
      kind: 'text';
      /** As knowledge has it now. */
      text: string;
      /** When a keeper corrected it after the answer (it then differs from what was given). */
      editedAfter?: Date | null;
      /** Switched off by a keeper: no longer searched. */
      disabled?: boolean;
    }
  /** The passage (or its file) was deleted, or the owner may no longer read it. */
  | { kind: 'gone' }
  /** The whole page was given to the model (a chat limited to files that fit): no one passage. */
  | { kind: 'page' }
  /** A turn stored before sources named their passage. */
  | { kind: 'unrecorded' };

/** A document's validity (the contract's Validity), as the answer had it or as it is now. */
export interface RecordValidity {
  status: string;
  relations: {
    relation: string;
    doc_number?: string | null;
    title?: string | null;
    file_name?: string | null;
  }[];
}

/** What became of a source's file since the answer, when the record was made. */
export type RecordFileNow =
  | { state: 'current'; validity?: RecordValidity | undefined }
  | {
      state: 'superseded';
      validity?: RecordValidity | undefined;
      supersededAt?: Date | null;
      /** The cited file's own version: above the current one's when an older one was restored. */
      version?: number | undefined;
      current?: { name: string; version: number } | null;
    }
  | { state: 'deleted' | 'unavailable' };

export interface RecordSource {
  fileName: string;
  /** The document's number (文号), as the answer had it. */
  docNumber?: string | null;
  /** Whether the document held, as the answer had it. */
  validity?: RecordValidity | undefined;
  /** Its file now; undefined when that could not be asked. */
  now?: RecordFileNow | undefined;
  page: number;
  section?: string | null;
  /** `ocr` when the page's text was read by OCR from a scan. */
  textSource?: string | null;
  similarity: number | null;
  /** Order of first citation in the answer (1-based); null when the answer does not cite it. */
  citation?: number | null;
  passage: Passage;
}

export interface RecordSentence {
  text: string;
  cited: number[];
  supported: boolean;
  missing?: string[];
}

export interface RecordTurn {
  question: string;
  answer: string;
  status: 'complete' | 'incomplete' | 'refused' | 'failed';
  askedAt: Date;
  /** The model that answered, when the turn recorded it. */
  model: string | null;
  /** In prompt order: `[n]` in the answer is the n-th. */
  sources: RecordSource[];
  /** Null when the answer was not checked (refusals, failures, older turns). */
  support: RecordSentence[] | null;
}

export interface AnswerRecord {
  id: string;
  title: string;
  language: RecordLanguage;
  createdAt: Date;
  exportedAt: Date;
  /** The reader's time zone (IANA) to write the times in; UTC without one. Each time says its zone. */
  timeZone?: string | undefined;
  /** The model the service answers with now, and whether it is the offline stand-in. */
  currentModel?: { name: string; offline: boolean };
  turns: RecordTurn[];
}

// Characters that would turn a file name or title into markup (emphasis, links, HTML, tables).
const INLINE_MARKUP = /[\\`*_[\]<>|~]/g;

/** Text shown as it is inside a Markdown line. */
export function inlineText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(INLINE_MARKUP, (char) => `\\${char}`)
    .replace(/^([#+-]|\d+[.)])/, '\\$1');
}

/** Text kept exactly as it is (a passage, a question): a fenced block longer than any ``` run in it. */
export function verbatim(text: string, info = 'text'): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text.replace(/\r\n?/g, '\n').replace(/\n+$/, '')}\n${fence}`;
}

/** Each line of `text` inside a block quote (a question keeps its line breaks). */
function quoted(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .split('\n')
    .map((line) => (line.trim() ? `> ${inlineText(line)}` : '>'))
    .join('  \n');
}

/** The record in Markdown, with labels in the record's language. */
export function renderAnswerRecord(record: AnswerRecord): string {
  const l = LABELS[record.language];
  const colon = record.language === 'zh' ? '：' : ': ';
  const time = (at: Date) => recordTime(at, record.timeZone);
  const out: string[] = [];
  out.push(`# ${inlineText(record.title)}`, '');
  out.push(`- ${l.conversation}${colon}\`${record.id}\``);
  out.push(`- ${l.started}${colon}${time(record.createdAt)}`);
  out.push(`- ${l.exported}${colon}${time(record.exportedAt)}`);
  out.push(`- ${l.timeZone}${colon}${inlineText(record.timeZone ?? 'UTC')}`);
  out.push(`- ${l.turns}${colon}${record.turns.length}`);
  if (record.currentModel) {
    const note = !record.currentModel.offline
      ? ''
      : record.language === 'zh'
        ? `（${l.offline}）`
        : ` (${l.offline})`;
    out.push(`- ${l.modelNow}${colon}${inlineText(record.currentModel.name)}${note}`);
  }
  record.turns.forEach((turn, index) => {
    out.push('', `## ${l.turn(index + 1)}`, '');
    out.push(`### ${l.question}`, '');
    out.push(`${l.asked}${colon}${time(turn.askedAt)}  `);
    out.push(`${l.model}${colon}${turn.model ? inlineText(turn.model) : l.notRecorded}`, '');
    out.push(quoted(turn.question), '');
    out.push(`### ${l.answer}`, '');
    if (turn.answer.trim()) out.push(turn.answer.trim(), '');
    const status = l.status[turn.status];
    if (status) out.push(`*${status}*`, '');
    if (turn.status === 'complete' || turn.status === 'incomplete') {
      out.push(`### ${l.support}`, '');
      if (turn.support && turn.support.length > 0) {
        for (const sentence of turn.support) out.push(sentenceLine(sentence, l, colon));
        out.push('');
      } else {
        out.push(l.notChecked, '');
      }
    }
    out.push(`### ${l.sources}`, '');
    if (turn.sources.length === 0) out.push(l.noSources, '');
    turn.sources.forEach((source, n) => {
      out.push(sourceBlock(source, n + 1, l, record.language, time), '');
    });
  });
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function sentenceLine(sentence: RecordSentence, l: Labels, colon: string): string {
  const cited = sentence.cited.map((n) => `[${n}]`).join('');
  const verdict = sentence.supported ? `✓ ${l.supported}` : `✗ ${l.unsupported}`;
  const missing =
    !sentence.supported && sentence.missing?.length
      ? ` (${l.missing}${colon}${sentence.missing.map(inlineText).join(', ')})`
      : '';
  return `- **${verdict}**${colon}${inlineText(sentence.text)}${cited ? ` ${cited}` : ''}${missing}`;
}

function sourceBlock(
  source: RecordSource,
  n: number,
  l: Labels,
  language: RecordLanguage,
  time: (at: Date) => string,
) {
  // A document without pages numbers its sections: the number is no page, its headings name it.
  const where = source.section
    ? `${l.section} ${inlineText(source.section)}`
    : language === 'zh'
      ? `${l.page} ${source.page} 页`
      : `${l.page} ${source.page}`;
  const parts = [`**[${n}] ${inlineText(source.fileName)}**`];
  if (source.docNumber) parts.push(`${l.docNumber} ${inlineText(source.docNumber)}`);
  parts.push(where);
  parts.push(source.citation ? l.cited(source.citation) : l.notCited);
  if (source.similarity !== null) parts.push(`${l.similarity} ${source.similarity.toFixed(3)}`);
  if (source.textSource === 'ocr') parts.push(l.ocr);
  if (source.validity) parts.push(`${l.validityThen} ${validityWords(source.validity, l)}`);
  const head = parts.join(language === 'zh' ? '，' : ', ');
  const passage = source.passage;
  const body =
    passage.kind === 'text'
      ? verbatim(passage.text)
      : `*${passage.kind === 'gone' ? l.passageGone : passage.kind === 'page' ? l.passagePage : l.passageUnrecorded}*`;
  const notes: string[] =
    passage.kind === 'text'
      ? [
          passage.editedAfter ? l.passageEdited(time(passage.editedAfter)) : '',
          passage.disabled ? l.passageDisabled : '',
        ].filter((note) => note !== '')
      : [];
  notes.push(...nowNotes(source, l, time));
  return [head, body, ...notes.map((note) => `*${note}*`)].join('\n\n');
}

/** A validity in words: its status and the document that repealed, replaced or amended it. */
function validityWords(validity: RecordValidity, l: Labels): string {
  const words = l.validity[validity.status] ?? validity.status;
  const kinds =
    validity.status === 'repealed'
      ? ['repealed_by', 'replaced_by']
      : validity.status === 'amended'
        ? ['amended_by']
        : [];
  const by = validity.relations.find((relation) => kinds.includes(relation.relation));
  const name = by && (by.doc_number ?? (by.title ? `《${by.title}》` : null) ?? by.file_name);
  return name ? `${words}${l.by(inlineText(name))}` : words;
}

/**
 * What became of the source's file since the answer: a newer version (named), deleted, no
 * longer readable, and its document's validity when it differs from the answer's.
 */
function nowNotes(source: RecordSource, l: Labels, time: (at: Date) => string): string[] {
  const now = source.now;
  if (!now) return [];
  const notes: string[] = [];
  if (now.state === 'superseded') {
    const current = now.current;
    notes.push(
      !current
        ? l.notCurrent
        : now.version !== undefined && current.version < now.version
          ? l.olderRestored(inlineText(current.name), current.version)
          : l.newerVersion(
              inlineText(current.name),
              current.version,
              now.supersededAt ? time(now.supersededAt) : '',
            ),
    );
  } else if (now.state === 'deleted') notes.push(l.deleted);
  else if (now.state === 'unavailable') notes.push(l.unavailable);
  if ('validity' in now && now.validity) {
    const then = source.validity ? validityWords(source.validity, l) : l.validity.in_force;
    const words = validityWords(now.validity, l);
    if (words !== then) notes.push(l.validityNow(words));
  }
  return notes;
}

/** The record's file name: the conversation's title, made safe by the download's header. */
export function recordFilename(title: string): string {
  const name = title.replace(/\s+/g, ' ').trim().slice(0, 120) || 'conversation';
  return `${name}.md`;
}
