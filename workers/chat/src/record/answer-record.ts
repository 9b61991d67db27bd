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

export interface RecordSource {
  fileName: string;
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

const LABELS = {
  en: {
    conversation: 'Conversation',
    started: 'Started',
    exported: 'Exported',
    timeZone: 'Time zone',
    turns: 'Turns',
    modelNow: 'Model at export',
    offline: 'offline demo model: answers are extracts of the sources, not written answers',
    turn: (n: number) => `Turn ${n}`,
    question: 'Question',
    asked: 'Asked',
    model: 'Model',
    notRecorded: 'not recorded',
    answer: 'Answer',
    status: {
      complete: '',
      incomplete: 'Cut off: the answer was interrupted before it ended.',
      refused: 'Not answered: nothing in the documents was relevant enough.',
      failed: 'Failed: the answer could not be completed.',
    },
    support: 'Sentences checked against the sources',
    supported: 'Supported',
    unsupported: 'Not found in the sources',
    missing: 'missing',
    notChecked: 'The answer was not checked sentence by sentence.',
    sources: 'Sources',
    noSources: 'No sources.',
    page: 'page',
    section: 'section',
    cited: (n: number) => `cited ${ordinal(n)}`,
    notCited: 'not cited',
    similarity: 'similarity',
    ocr: 'text read by OCR: check it against the original',
    passageGone: 'Passage no longer available.',
    passagePage: 'The whole page was given to the model.',
    passageUnrecorded: 'Passage not recorded for this answer.',
    passageEdited: (at: string) =>
      `Corrected by a keeper on ${at}, after this answer: the text above is the corrected one, not the one the answer was given.`,
    passageDisabled: 'Switched off by a keeper since: no longer searched.',
  },
  zh: {
    conversation: '对话',
    started: '开始时间',
    exported: '导出时间',
    timeZone: '时区',
    turns: '问答轮数',
    modelNow: '导出时使用的模型',
    offline: '离线演示模型：回答为原文摘录，并非模型撰写',
    turn: (n: number) => `第 ${n} 轮`,
    question: '问题',
    asked: '提问时间',
    model: '模型',
    notRecorded: '未记录',
    answer: '回答',
    status: {
      complete: '',
      incomplete: '回答未完成：在结束前被中断。',
      refused: '未作回答：文档中没有足够相关的内容。',
      failed: '回答失败：未能完成回答。',
    },
    support: '逐句核对来源',
    supported: '有来源依据',
    unsupported: '来源中未找到',
    missing: '缺少',
    notChecked: '该回答未逐句核对。',
    sources: '来源',
    noSources: '无来源。',
    page: '第',
    section: '章节',
    cited: (n: number) => `第 ${n} 个被引用`,
    notCited: '未被引用',
    similarity: '相似度',
    ocr: '文字由 OCR 识别，请与原件核对',
    passageGone: '该片段已不存在。',
    passagePage: '整页内容已提供给模型。',
    passageUnrecorded: '该回答未记录片段。',
    passageEdited: (at: string) =>
      `该片段已于 ${at} 由维护人员修改（在本次回答之后）：以上为修改后的文本，并非回答时依据的文本。`,
    passageDisabled: '该片段此后已被维护人员停用，不再参与检索。',
  },
} as const;

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
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

type Labels = (typeof LABELS)[RecordLanguage];

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
  const parts = [`**[${n}] ${inlineText(source.fileName)}**`, where];
  parts.push(source.citation ? l.cited(source.citation) : l.notCited);
  if (source.similarity !== null) parts.push(`${l.similarity} ${source.similarity.toFixed(3)}`);
  if (source.textSource === 'ocr') parts.push(l.ocr);
  const head = parts.join(language === 'zh' ? '，' : ', ');
  const passage = source.passage;
  const body =
    passage.kind === 'text'
      ? verbatim(passage.text)
      : `*${passage.kind === 'gone' ? l.passageGone : passage.kind === 'page' ? l.passagePage : l.passageUnrecorded}*`;
  const notes =
    passage.kind === 'text'
      ? [
          passage.editedAfter ? l.passageEdited(time(passage.editedAfter)) : '',
          passage.disabled ? l.passageDisabled : '',
        ].filter((note) => note !== '')
      : [];
  return [head, body, ...notes.map((note) => `*${note}*`)].join('\n\n');
}

/** The record's file name: the conversation's title, made safe by the download's header. */
export function recordFilename(title: string): string {
  const name = title.replace(/\s+/g, ' ').trim().slice(0, 120) || 'conversation';
  return `${name}.md`;
}
