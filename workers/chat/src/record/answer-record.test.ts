import { describe, expect, it } from 'vitest';
import {
  inlineText,
  recordFilename,
  renderAnswerRecord,
  verbatim,
  type AnswerRecord,
  type RecordTurn,
} from './answer-record';

const turn = (over: Partial<RecordTurn> = {}): RecordTurn => ({
  question: 'How many days of annual leave after ten years?',
  answer: '1. Staff with ten years of service get 25 working days [1].',
  status: 'complete',
  askedAt: new Date('2026-11-26T06:44:07.123Z'),
  model: 'gpt-4o-mini',
  sources: [
    {
      fileName: 'annual-leave-policy.md',
      page: 2,
      section: 'Leave › Annual leave',
      similarity: 0.7312,
      citation: 1,
      passage: { kind: 'text', text: 'After ten years of service: 25 working days.' },
    },
    {
      fileName: 'old-rules.pdf',
      page: 7,
      similarity: 0.52,
      citation: null,
      textSource: 'ocr',
      passage: { kind: 'gone' },
    },
  ],
  support: [
    {
      text: 'Staff with ten years of service get 25 working days.',
      cited: [1],
      supported: true,
    },
    { text: 'It rises to 30 days.', cited: [], supported: false, missing: ['30'] },
  ],
  ...over,
});

const record = (over: Partial<AnswerRecord> = {}): AnswerRecord => ({
  id: '2b1c7a43-59a4-4c39-9f0e-5ad9e1d0a111',
  title: 'Annual leave',
  language: 'en',
  createdAt: new Date('2026-11-26T06:44:07Z'),
  exportedAt: new Date('2026-11-26T08:00:00Z'),
  currentModel: { name: 'gpt-4o-mini', offline: false },
  turns: [turn()],
  ...over,
});

describe('the answer record in Markdown', () => {
  it('has each question, answer, model, time, sentence check and source with its passage', () => {
    const md = renderAnswerRecord(record());
    expect(md).toMatch(/^# Annual leave\n/);
    expect(md).toContain('- Conversation: `2b1c7a43-59a4-4c39-9f0e-5ad9e1d0a111`');
    expect(md).toContain('- Exported: 2026-11-26 08:00:00 UTC');
    expect(md).toContain('- Time zone: UTC');
    expect(md).toContain('## Turn 1');
    expect(md).toContain('Asked: 2026-11-26 06:44:07 UTC');
    expect(md).toContain('Model: gpt-4o-mini');
    expect(md).toContain('> How many days of annual leave after ten years?');
    expect(md).toContain('1. Staff with ten years of service get 25 working days [1].');
    expect(md).toContain(
      '- **✓ Supported**: Staff with ten years of service get 25 working days. [1]',
    );
    expect(md).toContain('- **✗ Not found in the sources**: It rises to 30 days. (missing: 30)');
    expect(md).toContain(
      '**[1] annual-leave-policy.md**, section Leave › Annual leave, cited 1st, similarity 0.731',
    );
    expect(md).toContain('```text\nAfter ten years of service: 25 working days.\n```');
    expect(md).toContain('text read by OCR: check it against the original');
    expect(md).toContain('*Passage no longer available.*');
    expect(md.endsWith('\n')).toBe(true);
    expect(md).not.toMatch(/\n{3}/);
  });

  it('speaks Chinese for a Chinese conversation', () => {
    const md = renderAnswerRecord(
      record({
        title: '差旅费',
        language: 'zh',
        currentModel: { name: 'gpt-4o-mini', offline: true },
        turns: [turn({ question: '省外出差住宿费每天的限额是多少？', model: null })],
      }),
    );
    expect(md).toContain('## 第 1 轮');
    expect(md).toContain('提问时间：2026-11-26 06:44:07 UTC');
    expect(md).toContain('模型：未记录');
    expect(md).toContain('> 省外出差住宿费每天的限额是多少？');
    // A document without pages: its section's headings, not its section's number as a page.
    expect(md).toContain(
      '**[1] annual-leave-policy.md**，章节 Leave › Annual leave，第 1 个被引用',
    );
    expect(md).toContain('**[2] old-rules.pdf**，第 7 页');
    expect(md).toContain('*该片段已不存在。*');
    expect(md).toContain(
      '- 导出时使用的模型：gpt-4o-mini（离线演示模型：回答为原文摘录，并非模型撰写）',
    );
  });

  it('says what a refused or unchecked answer lacks, and a whole page given', () => {
    const md = renderAnswerRecord(
      record({
        turns: [
          turn({ status: 'refused', answer: 'I do not know.', sources: [], support: null }),
          turn({
            support: null,
            sources: [
              { fileName: 'a.md', page: 1, similarity: null, passage: { kind: 'page' } },
              { fileName: 'b.md', page: 1, similarity: null, passage: { kind: 'unrecorded' } },
            ],
          }),
        ],
      }),
    );
    expect(md).toContain('*Not answered: nothing in the documents was relevant enough.*');
    expect(md).toContain('No sources.');
    expect(md).toContain('The answer was not checked sentence by sentence.');
    expect(md).toContain('*The whole page was given to the model.*');
    expect(md).toContain('*Passage not recorded for this answer.*');
    // A refusal is not checked sentence by sentence: no such heading in its turn.
    const first = md.slice(md.indexOf('## Turn 1'), md.indexOf('## Turn 2'));
    expect(first).not.toContain('Sentences checked');
  });

  it('says when a passage was corrected after the answer, or switched off, in both languages', () => {
    const edited = turn({
      sources: [
        {
          fileName: 'policy.pdf',
          page: 3,
          similarity: 0.8,
          citation: 1,
          passage: {
            kind: 'text',
            text: '最高额度为50万元。',
            editedAfter: new Date('2026-11-26T07:10:00Z'),
            disabled: true,
          },
        },
      ],
    });
    const en = renderAnswerRecord(record({ turns: [edited] }));
    expect(en).toContain(
      '*Corrected by a keeper on 2026-11-26 07:10:00 UTC, after this answer: the text above is the corrected one, not the one the answer was given.*',
    );
    expect(en).toContain('*Switched off by a keeper since: no longer searched.*');
    const zh = renderAnswerRecord(record({ language: 'zh', turns: [edited] }));
    expect(zh).toContain('*该片段已于 2026-11-26 07:10:00 UTC 由维护人员修改（在本次回答之后）');
    expect(zh).toContain('*该片段此后已被维护人员停用，不再参与检索。*');
    // A passage as it was: no note.
    expect(renderAnswerRecord(record())).not.toMatch(/Corrected by|Switched off/);
  });

  it('writes every time in the reader’s time zone, with its offset, and names the zone', () => {
    const edited = turn({
      sources: [
        {
          fileName: 'policy.pdf',
          page: 3,
          similarity: 0.8,
          citation: 1,
          passage: {
            kind: 'text',
            text: '最高额度为50万元。',
            editedAfter: new Date('2026-11-26T07:10:00Z'),
          },
        },
      ],
    });
    const zh = renderAnswerRecord(
      record({ language: 'zh', timeZone: 'Asia/Shanghai', turns: [edited] }),
    );
    expect(zh).toContain('- 开始时间：2026-11-26 14:44:07 UTC+08:00');
    expect(zh).toContain('- 导出时间：2026-11-26 16:00:00 UTC+08:00');
    expect(zh).toContain('- 时区：Asia/Shanghai');
    expect(zh).toContain('提问时间：2026-11-26 14:44:07 UTC+08:00');
    expect(zh).toContain('*该片段已于 2026-11-26 15:10:00 UTC+08:00 由维护人员修改');
    expect(zh).not.toMatch(/\d UTC(?!\+)/);
    // Across midnight, and summer time: the offset of each moment.
    const en = renderAnswerRecord(
      record({
        timeZone: 'America/New_York',
        createdAt: new Date('2026-01-15T03:30:00Z'),
        exportedAt: new Date('2026-07-15T03:30:00Z'),
      }),
    );
    expect(en).toContain('- Started: 2026-01-14 22:30:00 UTC-05:00');
    expect(en).toContain('- Exported: 2026-07-14 23:30:00 UTC-04:00');
    expect(en).toContain('- Time zone: America/New\\_York');
  });

  it('keeps names and passages from becoming markup', () => {
    expect(inlineText('# a*b*_c_ <img src=x> [l](u)')).toBe(
      '\\# a\\*b\\*\\_c\\_ \\<img src=x\\> \\[l\\](u)',
    );
    expect(verbatim('a ``` b')).toBe('````text\na ``` b\n````');
    const md = renderAnswerRecord(
      record({ title: '<script>x</script>', turns: [turn({ question: '# not a heading' })] }),
    );
    expect(md).toContain('# \\<script\\>x\\</script\\>');
    expect(md).toContain('> \\# not a heading');
  });

  it('names the file after the title', () => {
    expect(recordFilename('  Annual   leave ')).toBe('Annual leave.md');
    expect(recordFilename('')).toBe('conversation.md');
  });
});

describe('each source as the answer had it and its file as it stands now', () => {
  const repealed = {
    status: 'repealed',
    relations: [{ relation: 'repealed_by', doc_number: '川办规〔2026〕1号' }],
  };
  const cited = (over: Partial<RecordTurn['sources'][number]>) =>
    turn({
      sources: [
        {
          fileName: 'jiedai-2024.docx',
          docNumber: '川办规〔2024〕6号',
          validity: { status: 'in_force', relations: [] },
          page: 3,
          similarity: 0.8,
          citation: 1,
          passage: { kind: 'text', text: '住宿费标准为每人每天 400 元。' },
          ...over,
        },
      ],
    });

  it('names the 文号 and the validity at the answer; a newer version by name, version and time', () => {
    const md = renderAnswerRecord(
      record({
        language: 'zh',
        turns: [
          cited({
            now: {
              state: 'superseded',
              supersededAt: new Date('2026-03-02T08:00:00Z'),
              current: { name: 'jiedai-2024-v2.docx', version: 2 },
              validity: { status: 'in_force', relations: [] },
            },
          }),
        ],
      }),
    );
    expect(md).toContain(
      '**[1] jiedai-2024.docx**，文号 川办规〔2024〕6号，第 3 页，第 1 个被引用，相似度 0.800，回答时效力 现行有效',
    );
    expect(md).toContain(
      '*该文件在本次回答之后已有新版本：jiedai-2024-v2.docx（第 2 版，2026-03-02 08:00:00 UTC 起）。本次回答依据的是以上版本。*',
    );
    expect(md).not.toContain('现在的效力');
  });

  it('says an older version made current again as such, never as a newer version', () => {
    const md = renderAnswerRecord(
      record({
        turns: [
          cited({
            now: {
              state: 'superseded',
              version: 2,
              supersededAt: new Date('2026-03-02T08:00:00Z'),
              current: { name: 'jiedai-2024.docx', version: 1 },
            },
          }),
        ],
      }),
    );
    expect(md).toContain(
      '*Since this answer an older version of this file was made the current one again: jiedai-2024.docx (version 1). The answer was based on the version above.*',
    );
    expect(md).not.toContain('newer version');
  });

  it('says a file deleted since, and a validity that differs now', () => {
    const deleted = renderAnswerRecord(record({ turns: [cited({ now: { state: 'deleted' } })] }));
    expect(deleted).toContain('*This file has been deleted since this answer.*');
    const repeal = renderAnswerRecord(
      record({ turns: [cited({ now: { state: 'current', validity: repealed } })] }),
    );
    expect(repeal).toContain('validity at the answer in force');
    expect(repeal).toContain('*Its document is now repealed by 川办规〔2026〕1号.*');
  });

  it('adds nothing when all is as it was, or when the state now is not known', () => {
    for (const now of [{ state: 'current' as const }, undefined]) {
      const md = renderAnswerRecord(record({ turns: [cited({ now })] }));
      expect(md).not.toMatch(/since this answer|is now|no longer available to you/);
    }
  });
});
