import { translations } from '../define';
import { countOf, formatInteger, formatPercent } from '../format';

const filesEn = (count: number) => countOf(count, { one: '# file', other: '# files' });
const pagesEn = (count: number) => countOf(count, { one: '# page', other: '# pages' });
const chunksEn = (count: number) => countOf(count, { one: '# chunk', other: '# chunks' });
const sectionsEn = (count: number) => countOf(count, { one: '# section', other: '# sections' });
const passagesEn = (count: number) => countOf(count, { one: '# passage', other: '# passages' });

type Status = 'queued' | 'processing' | 'ready' | 'failed';
/** The files panel's sort choices: a field and its direction, as one choice. */
type SortChoice =
  | 'created_at:desc'
  | 'created_at:asc'
  | 'name:asc'
  | 'name:desc'
  | 'status:asc'
  | 'size:desc'
  | 'size:asc';

/** What a file is, by the format the service read it as. */
type Format = 'pdf' | 'docx' | 'html' | 'markdown' | 'text' | 'UNKNOWN';

export const files = translations({
  en: {
    knowledgeBase: 'Knowledge base',
    fileCount: filesEn,
    dropHere: 'Drop documents here',
    or: 'or',
    choose: 'Choose documents…',
    dropHint:
      'Documents (PDF, Word, HTML, Markdown, text); scanned PDFs are read by OCR. Each file is read, split and indexed.',
    uploads: 'Uploads',
    clearFinished: 'Clear finished uploads',
    added: (count: number) => `${filesEn(count)} added to the uploads.`,
    finished: 'Uploads finished.',
    finishedWithFailures: (failed: number) =>
      `Uploads finished; ${filesEn(failed)} could not be added.`,
    progressUploading: (name: string) => `Uploading ${name}`,
    progressProcessing: (name: string) => `Processing ${name}`,
    progressWaiting: (name: string) => `${name} is waiting`,
    waiting: 'Waiting…',
    uploading: (fraction: number) => `Uploading… ${formatPercent(fraction)}`,
    sent: 'Uploaded. Handing it over…',
    queued: 'Waiting to be processed…',
    readingDocument: 'Reading the text…',
    readingPages: (done: number, total: number) =>
      `Reading pages: ${formatInteger(done)} of ${formatInteger(total)}`,
    readingScans: (done: number, total: number) =>
      `Reading scanned pages (OCR): ${formatInteger(done)} of ${formatInteger(total)}`,
    // A ready PDF with pages read by OCR, or with font-map faults repaired: what to check.
    ocrNote: (pages: number, confidence: number | null) =>
      `${pagesEn(pages)} read by OCR${confidence === null ? '' : ` (confidence ${formatPercent(confidence)})`}: check quotes against the original.`,
    repairedNote: (pages: number) => `Broken characters repaired on ${pagesEn(pages)}.`,
    indexing: (done: number, total: number) =>
      `Indexing: ${formatInteger(done)} of ${passagesEn(total)}`,
    willRetry: (reason: string) => `Trying again soon. ${reason}`,
    statusUnknown: 'Its status is not known to this version of the app: reload the page.',
    addedResult: (pages: number, chunks: number) =>
      `Added: ${pagesEn(pages)}, ${chunksEn(chunks)}.`,
    addedSections: (sections: number, chunks: number) =>
      `Added: ${sectionsEn(sections)}, ${chunksEn(chunks)}.`,
    announceReady: (name: string) => `${name} is ready: questions can now use it.`,
    announceFailed: (name: string, reason: string) => `${name} failed: ${reason}`,
    duplicate: (name: string) => `Already in this collection as “${name}”; nothing was added.`,
    cancelled: 'Cancelled.',
    cancel: 'Cancel',
    cancelUpload: (name: string) => `Cancel the upload of ${name}`,
    notUploaded: (reason: string) => `Not uploaded: ${reason}`,
    listFailed: (reason: string) => `The file list could not be loaded: ${reason}`,
    loading: 'Loading files…',
    emptyTitle: 'No documents yet',
    empty: 'Upload a document to start asking questions about it.',
    selected: (count: number) =>
      `${filesEn(count)} selected: questions search only ${count === 1 ? 'this file' : 'these files'}.`,
    clearSelection: 'Clear selection',
    selectTitle: 'Select to limit questions to this file',
    notSelectableInProgress:
      'Not searchable yet: it can be selected for questions once it is read and indexed.',
    notSelectableFailed: 'Not searchable: it failed to be read or indexed. Retry it or delete it.',
    statusBadge: (status: 'queued' | 'processing' | 'failed'): string =>
      status === 'failed' ? 'Failed' : status === 'queued' ? 'Waiting' : 'Processing',
    format: (format: Format): string =>
      ({
        pdf: 'PDF',
        docx: 'Word',
        html: 'HTML',
        markdown: 'Markdown',
        text: 'Text',
        UNKNOWN: 'Document',
      })[format],
    meta: (pages: number, chunks: number, size: string) =>
      `${pagesEn(pages)} · ${chunksEn(chunks)} · ${size}`,
    metaSections: (sections: number, chunks: number, size: string) =>
      `${sectionsEn(sections)} · ${chunksEn(chunks)} · ${size}`,
    search: 'Search',
    searchPlaceholder: 'Name, document number or title',
    statusFilter: 'Status',
    typeFilter: 'Type',
    sort: 'Sort',
    anyStatus: 'All',
    allStatuses: (count: number) => `All (${formatInteger(count)})`,
    statusOption: (status: Status, count: number): string =>
      `${{ queued: 'Waiting', processing: 'Processing', ready: 'Ready', failed: 'Failed' }[status]} (${formatInteger(count)})`,
    allTypes: 'All types',
    sortOption: (choice: SortChoice): string =>
      ({
        'created_at:desc': 'Newest first',
        'created_at:asc': 'Oldest first',
        'name:asc': 'Name A–Z',
        'name:desc': 'Name Z–A',
        'status:asc': 'By status',
        'size:desc': 'Largest first',
        'size:asc': 'Smallest first',
      })[choice],
    matching: (count: number) => `${filesEn(count)} found`,
    noMatchTitle: 'No files match',
    noMatch: 'Try another name, or clear the search and filters.',
    clearFilters: 'Clear search and filters',
    pages: 'Pages of files',
    chunks: 'Chunks',
    chunksNamed: (name: string) => `Chunks of ${name}`,
    switchOff: 'Switch off',
    switchOffNamed: (name: string) => `Switch off ${name}`,
    switchOn: 'Switch on',
    switchOnNamed: (name: string) => `Switch on ${name}`,
    offBadge: 'Off',
    offNote: 'Switched off: it is not searched and cannot be selected for questions.',
    switchedOff: (name: string) => `${name} is switched off: it is no longer searched.`,
    switchedOn: (name: string) => `${name} is switched on: it is searched again.`,
    notSwitched: (name: string, reason: string) => `${name} could not be switched: ${reason}`,
    onlyManagerMaySwitch: 'only whoever may manage the file may switch it off or on.',
    retryWontHelp: 'Retrying would not help: upload a readable copy, or delete it.',
    retry: 'Retry',
    retryNamed: (name: string) => `Retry ${name}`,
    retrying: (name: string) => `${name} is being processed again.`,
    notRetried: (name: string, reason: string) => `${name} could not be retried: ${reason}`,
    onlyUploaderMayRetry: 'only its uploader or a super admin may retry it.',
    download: 'Download',
    downloadNamed: (name: string) => `Download ${name}`,
    moreNamed: (name: string) => `More actions for ${name}`,
    delete: 'Delete',
    deleteNamed: (name: string) => `Delete ${name}`,
    deleteTitle: 'Delete this file?',
    deleteMessage: (name: string) =>
      `“${name}” and everything learnt from it will be removed from the knowledge base for everyone.`,
    deleteProcessingTitle: 'Stop processing and delete this file?',
    deleteProcessingMessage: (name: string) =>
      `“${name}” is still being processed. Processing stops, and the file and what was read of it so far are removed from the knowledge base.`,
    deleted: (name: string) => `${name} was deleted.`,
    notDeleted: (name: string, reason: string) => `${name} could not be deleted: ${reason}`,
    onlyUploaderMayDelete: 'only its uploader or a super admin may delete it.',
  },
  zh: {
    knowledgeBase: '知识库',
    fileCount: (count) => `${formatInteger(count)} 个文件`,
    dropHere: '将文件拖放到这里',
    or: '或',
    choose: '选择文件…',
    dropHint:
      '支持的格式：PDF、Word、HTML、Markdown、纯文本；扫描版 PDF 会经 OCR 识别。每个文件都会被读取、切分并建立索引。',
    uploads: '上传',
    clearFinished: '清除已完成的上传',
    added: (count) => `已将 ${formatInteger(count)} 个文件加入上传队列。`,
    finished: '上传已全部完成。',
    finishedWithFailures: (failed) => `上传已结束，其中 ${formatInteger(failed)} 个文件未能添加。`,
    progressUploading: (name) => `正在上传 ${name}`,
    progressProcessing: (name) => `正在处理 ${name}`,
    progressWaiting: (name) => `${name} 正在等待`,
    waiting: '等待中…',
    uploading: (fraction) => `正在上传… ${formatPercent(fraction)}`,
    sent: '已上传，正在移交处理…',
    queued: '等待处理…',
    readingDocument: '正在读取文字…',
    readingPages: (done, total) => `正在读取页面：${formatInteger(done)} / ${formatInteger(total)}`,
    readingScans: (done, total) =>
      `正在识别扫描页（OCR）：${formatInteger(done)} / ${formatInteger(total)}`,
    ocrNote: (pages, confidence) =>
      `${formatInteger(pages)} 页为 OCR 识别${confidence === null ? '' : `（置信度 ${formatPercent(confidence)}）`}，引用前请与原件核对。`,
    repairedNote: (pages) => `已修复 ${formatInteger(pages)} 页中的乱码字符。`,
    indexing: (done, total) =>
      `正在建立索引：${formatInteger(done)}/${formatInteger(total)} 个片段`,
    willRetry: (reason) => `稍后将自动重试。${reason}`,
    statusUnknown: '当前版本的应用无法识别该文件的状态，请刷新页面。',
    addedResult: (pages, chunks) =>
      `已添加：${formatInteger(pages)} 页，${formatInteger(chunks)} 个片段。`,
    addedSections: (sections, chunks) =>
      `已添加：${formatInteger(sections)} 个章节，${formatInteger(chunks)} 个片段。`,
    announceReady: (name) => `${name} 已处理完成，现在可以就它提问。`,
    announceFailed: (name, reason) => `${name} 处理失败：${reason}`,
    duplicate: (name) => `该资料集中已有相同文件“${name}”，未重复添加。`,
    cancelled: '已取消。',
    cancel: '取消',
    cancelUpload: (name) => `取消上传 ${name}`,
    notUploaded: (reason) => `未上传：${reason}`,
    listFailed: (reason) => `无法加载文件列表：${reason}`,
    loading: '正在加载文件…',
    emptyTitle: '还没有文件',
    empty: '上传一个文件，就可以开始就它提问。',
    selected: (count) =>
      `已选择 ${formatInteger(count)} 个文件：提问时只在${count === 1 ? '该文件' : '这些文件'}中查找。`,
    clearSelection: '取消选择',
    selectTitle: '勾选后，提问只在此文件中查找',
    notSelectableInProgress: '暂不可检索：读取并建立索引后才能勾选用于提问。',
    notSelectableFailed: '不可检索：读取或建立索引失败。请重试或将其删除。',
    statusBadge: (status) =>
      status === 'failed' ? '失败' : status === 'queued' ? '排队中' : '处理中',
    format: (format) =>
      ({
        pdf: 'PDF',
        docx: 'Word',
        html: 'HTML',
        markdown: 'Markdown',
        text: '纯文本',
        UNKNOWN: '文件',
      })[format],
    meta: (pages, chunks, size) =>
      `${formatInteger(pages)} 页 · ${formatInteger(chunks)} 个片段 · ${size}`,
    metaSections: (sections, chunks, size) =>
      `${formatInteger(sections)} 个章节 · ${formatInteger(chunks)} 个片段 · ${size}`,
    search: '搜索',
    searchPlaceholder: '文件名、文号或标题',
    statusFilter: '状态',
    typeFilter: '类型',
    sort: '排序',
    anyStatus: '全部',
    allStatuses: (count) => `全部（${formatInteger(count)}）`,
    statusOption: (status, count) =>
      `${{ queued: '排队中', processing: '处理中', ready: '可用', failed: '失败' }[status]}（${formatInteger(count)}）`,
    allTypes: '全部类型',
    sortOption: (choice) =>
      ({
        'created_at:desc': '最新上传在前',
        'created_at:asc': '最早上传在前',
        'name:asc': '名称 A–Z',
        'name:desc': '名称 Z–A',
        'status:asc': '按状态',
        'size:desc': '从大到小',
        'size:asc': '从小到大',
      })[choice],
    matching: (count) => `找到 ${formatInteger(count)} 个文件`,
    noMatchTitle: '没有符合条件的文件',
    noMatch: '换个名称试试，或清除搜索和筛选条件。',
    clearFilters: '清除搜索和筛选',
    pages: '文件分页',
    chunks: '片段',
    chunksNamed: (name) => `片段：${name}`,
    switchOff: '停用',
    switchOffNamed: (name) => `停用 ${name}`,
    switchOn: '启用',
    switchOnNamed: (name) => `启用 ${name}`,
    offBadge: '已停用',
    offNote: '已停用：不会被检索，也不能勾选用于提问。',
    switchedOff: (name) => `已停用 ${name}：它不再被检索。`,
    switchedOn: (name) => `已启用 ${name}：它会重新被检索。`,
    notSwitched: (name, reason) => `无法切换 ${name} 的启用状态：${reason}`,
    onlyManagerMaySwitch: '只有可以管理该文件的人才能停用或启用它。',
    retryWontHelp: '重试也无济于事：请上传一份可读的文件，或将其删除。',
    retry: '重试',
    retryNamed: (name) => `重试 ${name}`,
    retrying: (name) => `正在重新处理 ${name}。`,
    notRetried: (name, reason) => `无法重试 ${name}：${reason}`,
    onlyUploaderMayRetry: '只有上传者或超级管理员可以重试。',
    download: '下载',
    downloadNamed: (name) => `下载 ${name}`,
    moreNamed: (name) => `更多操作：${name}`,
    delete: '删除',
    deleteNamed: (name) => `删除 ${name}`,
    deleteTitle: '删除此文件？',
    deleteMessage: (name) =>
      `“${name}”及从中提取的全部内容将从知识库中删除，所有人都将无法再使用。`,
    deleteProcessingTitle: '停止处理并删除此文件？',
    deleteProcessingMessage: (name) =>
      `“${name}”仍在处理中。处理将停止，该文件及已读取的内容将从知识库中删除。`,
    deleted: (name) => `已删除 ${name}。`,
    notDeleted: (name, reason) => `无法删除 ${name}：${reason}`,
    onlyUploaderMayDelete: '只有上传者或超级管理员可以删除它。',
  },
});
