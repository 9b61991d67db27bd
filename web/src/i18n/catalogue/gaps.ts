import { translations } from '../define';
import { formatDecimal2, formatInteger } from '../format';

// The gap report (知识缺口): questions a collection could not answer well (refused, marked
// unhelpful, answered with sentences not found in the sources), grouped, for its keepers.
export const gaps = translations({
  en: {
    section: 'Gap report',
    intro:
      'Questions this collection could not answer well: refused for lack of relevant passages, marked unhelpful, or answered with sentences not found in the sources. Similar questions are grouped, the most frequent first.',
    showResolved: 'Show resolved',
    exportCsv: 'Export CSV',
    exportFailed: (reason: string) => `The export failed: ${reason}`,
    loading: 'Loading the gap report…',
    loadFailed: (reason: string) => `The gap report could not be loaded: ${reason}`,
    /** A viewer who opened the report by its address: it is its editors' and owners' only. */
    keepersOnly:
      'Only this collection’s editors and owners may see its gap report. Ask an owner to make you an editor if you need it.',
    none: 'No open questions: every question asked of this collection was answered.',
    noneAtAll: 'No questions have been recorded for this collection yet.',
    total: (questions: number, groups: number) =>
      `${formatInteger(questions)} questions in ${formatInteger(groups)} groups`,
    asked: (count: number) => (count === 1 ? 'Asked once' : `Asked ${formatInteger(count)} times`),
    kinds: {
      refused: (n: number) => `refused ${formatInteger(n)}`,
      unhelpful: (n: number) => `unhelpful ${formatInteger(n)}`,
      unsupported: (n: number) => `not found in sources ${formatInteger(n)}`,
    },
    latest: 'Last asked',
    bestSimilarity: 'Best similarity',
    noSimilarity: 'nothing found',
    closest: 'Closest passages',
    noPassages: 'No passage came close.',
    /** `place`: where in the file, its page or section (../../source-place.ts). */
    passage: (file: string, place: string, similarity: number | null) =>
      `${file}, ${place}${similarity === null ? '' : ` (${formatDecimal2(similarity)})`}`,
    openPassageTitle: (file: string, place: string) =>
      `Open ${file} at ${place}, passage highlighted`,
    resolvedBadge: 'Resolved',
    writeAnswer: 'Write an official answer',
    resolve: 'Mark as resolved',
    reopen: 'Reopen',
    resolved: 'Marked as resolved.',
    reopened: 'Reopened.',
    answered: 'Official answer saved; its questions are resolved.',
    notChanged: (reason: string) => `Not changed: ${reason}`,
    // The unhelpful-answers review (super admins)
    reviewShowResolved: 'Show resolved',
    reviewResolve: 'Mark as resolved',
    reviewReopen: 'Reopen',
    reviewResolvedAt: (at: string) => `Resolved ${at}`,
    reviewClosest: 'Closest passages (refused)',
    reviewWhose: (user: string) =>
      `${user}’s turn, shown in full: the conversation itself stays theirs alone.`,
    reviewNotChanged: (reason: string) => `Not changed: ${reason}`,
  },
  zh: {
    section: '知识缺口',
    intro:
      '本资料集没能答好的问题：因找不到相关片段而拒答、被标记为没有帮助，或回答中有句子在来源中找不到。相似的问题归为一组，问得最多的排在前面。',
    showResolved: '显示已解决',
    exportCsv: '导出 CSV',
    exportFailed: (reason) => `导出失败：${reason}`,
    loading: '正在加载知识缺口…',
    loadFailed: (reason) => `无法加载知识缺口：${reason}`,
    keepersOnly:
      '只有本资料集的编辑者和所有者可以查看知识缺口。如有需要，可请所有者将您设为编辑者。',
    none: '没有待处理的问题：对本资料集提出的问题都已得到回答。',
    noneAtAll: '本资料集还没有记录到问题。',
    total: (questions, groups) =>
      `共 ${formatInteger(questions)} 个问题，${formatInteger(groups)} 组`,
    asked: (count) => (count === 1 ? '问过 1 次' : `问过 ${formatInteger(count)} 次`),
    kinds: {
      refused: (n) => `拒答 ${formatInteger(n)}`,
      unhelpful: (n) => `没有帮助 ${formatInteger(n)}`,
      unsupported: (n) => `来源中找不到 ${formatInteger(n)}`,
    },
    latest: '最近一次',
    bestSimilarity: '最高相似度',
    noSimilarity: '未找到',
    closest: '最接近的片段',
    noPassages: '没有接近的片段。',
    passage: (file, place, similarity) =>
      `${file}，${place}${similarity === null ? '' : `（${formatDecimal2(similarity)}）`}`,
    openPassageTitle: (file, place) => `打开 ${file} ${place}，并高亮该片段`,
    resolvedBadge: '已解决',
    writeAnswer: '撰写标准口径',
    resolve: '标记为已解决',
    reopen: '重新打开',
    resolved: '已标记为已解决。',
    reopened: '已重新打开。',
    answered: '标准口径已保存，相关问题已标记为已解决。',
    notChanged: (reason) => `未能修改：${reason}`,
    reviewShowResolved: '显示已解决',
    reviewResolve: '标记为已解决',
    reviewReopen: '重新打开',
    reviewResolvedAt: (at) => `已于 ${at} 解决`,
    reviewClosest: '最接近的片段（已拒答）',
    reviewWhose: (user) => `${user} 的这一轮对话（完整显示）；对话本身仅其本人可见。`,
    reviewNotChanged: (reason) => `未能修改：${reason}`,
  },
});
