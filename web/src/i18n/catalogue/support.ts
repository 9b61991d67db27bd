import { translations } from '../define';
import { countOf, formatList } from '../format';

/** The note under an answer naming the sentences its sources do not hold (chat/support-note.tsx). */
export const support = translations({
  en: {
    notFound: (count: number) =>
      countOf(count, {
        one: '# sentence not found in the sources',
        other: '# sentences not found in the sources',
      }),
    /** The figures of a sentence that no cited passage has. */
    missing: (figures: readonly string[]) => `Not in the sources: ${formatList(figures)}`,
    explain:
      'Each sentence was compared with the passages it cites: check these against the documents before relying on them.',
    /** Read after a marked sentence in the answer (screen readers). */
    marked: '(not found in the sources)',
  },
  zh: {
    notFound: (count) => `${countOf(count, { other: '#' })} 句未在来源中找到`,
    missing: (figures) => `来源中没有：${formatList(figures)}`,
    explain: '已将每句话与其引用的片段逐一比对：请先对照原文核实以下句子，再作依据。',
    marked: '（未在来源中找到）',
  },
});
