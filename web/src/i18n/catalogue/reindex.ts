import { translations } from '../define';
import { formatInteger } from '../format';

/** A collection's search index: which embedding model made its vectors, and the re-index. */
export const reindex = translations({
  en: {
    heading: 'Search index',
    current: (model: string) => `Every passage is indexed by the configured model (${model}).`,
    stale: (count: number, models: string) =>
      `${formatInteger(count)} ${count === 1 ? 'passage was' : 'passages were'} indexed by another embedding model (${models}); they are found by keyword search only until re-indexed.`,
    unrecorded: 'not recorded',
    start: 'Re-index',
    startTitle:
      'Embeds those passages again with the configured model, in the background; search keeps working meanwhile.',
    askOwner: 'An owner of the collection can re-index it.',
    running: 'Re-indexing',
    progress: (done: number, total: number) =>
      `Re-indexing: ${formatInteger(done)} of ${formatInteger(total)} passages`,
    done: 'The re-index is done: every passage is found by vector search again.',
    failed: (reason: string) =>
      `The re-index stopped: ${reason} Passages not re-indexed yet keep their old vectors; start it again to go on.`,
    notStarted: (reason: string) => `The re-index did not start: ${reason}`,
  },
  zh: {
    heading: '检索索引',
    current: (model) => `所有片段均由当前配置的向量模型（${model}）建立索引。`,
    stale: (count, models) =>
      `有 ${formatInteger(count)} 个片段由另一个向量模型（${models}）建立索引；重新索引之前，只能通过关键词检索找到它们。`,
    unrecorded: '未记录',
    start: '重新索引',
    startTitle: '在后台用当前配置的模型重新向量化这些片段；期间检索照常可用。',
    askOwner: '资料集的所有者可以重新索引。',
    running: '正在重新索引',
    progress: (done, total) =>
      `正在重新索引：${formatInteger(done)}/${formatInteger(total)} 个片段`,
    done: '重新索引已完成：所有片段都能再次通过向量检索找到。',
    failed: (reason) =>
      `重新索引已中断：${reason}尚未处理的片段仍使用原来的向量；再次开始即可从中断处继续。`,
    notStarted: (reason) => `重新索引未能开始：${reason}`,
  },
});
