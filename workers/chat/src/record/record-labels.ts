import type { RecordLanguage } from './answer-record';

/** The record's words in its two languages (answer-record.ts writes them). */
export const LABELS = {
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
    docNumber: 'document number',
    validityThen: 'validity at the answer',
    validity: {
      in_force: 'in force',
      amended: 'amended',
      repealed: 'repealed',
      expired: 'expired',
    } as Record<string, string>,
    by: (name: string) => ` by ${name}`,
    newerVersion: (name: string, version: number, at: string) =>
      `This file has a newer version since this answer: ${name} (version ${version}${at ? `, since ${at}` : ''}). The answer was based on the version above.`,
    olderRestored: (name: string, version: number) =>
      `Since this answer an older version of this file was made the current one again: ${name} (version ${version}). The answer was based on the version above.`,
    notCurrent: 'This file is no longer the version searched since this answer.',
    deleted: 'This file has been deleted since this answer.',
    unavailable: 'This file is no longer available to you.',
    validityNow: (text: string) => `Its document is now ${text}.`,
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
    docNumber: '文号',
    validityThen: '回答时效力',
    validity: {
      in_force: '现行有效',
      amended: '已修改',
      repealed: '已废止',
      expired: '已过期',
    } as Record<string, string>,
    by: (name: string) => `（${name}）`,
    newerVersion: (name: string, version: number, at: string) =>
      `该文件在本次回答之后已有新版本：${name}（第 ${version} 版${at ? `，${at} 起` : ''}）。本次回答依据的是以上版本。`,
    olderRestored: (name: string, version: number) =>
      `本次回答之后，该文件已恢复为较早的版本作为当前版本：${name}（第 ${version} 版）。本次回答依据的是以上版本。`,
    notCurrent: '该文件在本次回答之后已不是当前检索的版本。',
    deleted: '该文件在本次回答之后已被删除。',
    unavailable: '您已无权查看该文件。',
    validityNow: (text: string) => `该文件现在的效力：${text}。`,
  },
} as const;

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

export type Labels = (typeof LABELS)[RecordLanguage];
