import { translations } from '../define';
import { countOf, formatInteger, formatPercent } from '../format';

const filesEn = (count: number) => countOf(count, { one: '# file', other: '# files' });
const pagesEn = (count: number) => countOf(count, { one: '# page', other: '# pages' });
const chunksEn = (count: number) => countOf(count, { one: '# chunk', other: '# chunks' });

export const files = translations({
  en: {
    knowledgeBase: 'Knowledge base',
    fileCount: filesEn,
    dropHere: 'Drop PDF files here',
    or: 'or',
    choose: 'Choose PDF files…',
    dropHint: 'PDFs with selectable text. Each file is read, split and indexed.',
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
    processing: 'Uploaded. Reading and indexing the text…',
    addedResult: (pages: number, chunks: number) =>
      `Added: ${pagesEn(pages)}, ${chunksEn(chunks)}.`,
    duplicate: (name: string) => `Already in the knowledge base as “${name}”; nothing was added.`,
    cancelled: 'Cancelled.',
    cancel: 'Cancel',
    cancelUpload: (name: string) => `Cancel the upload of ${name}`,
    notUploaded: (reason: string) => `Not uploaded: ${reason}`,
    listFailed: (reason: string) => `The file list could not be loaded: ${reason}`,
    loading: 'Loading files…',
    emptyTitle: 'No documents yet',
    empty: 'Upload a PDF to start asking questions about it.',
    selected: (count: number) =>
      `${filesEn(count)} selected: questions search only ${count === 1 ? 'this file' : 'these files'}.`,
    clearSelection: 'Clear selection',
    selectTitle: 'Select to limit questions to this file',
    meta: (pages: number, chunks: number, size: string) =>
      `${pagesEn(pages)} · ${chunksEn(chunks)} · ${size}`,
    download: 'Download',
    downloadNamed: (name: string) => `Download ${name}`,
    delete: 'Delete',
    deleteNamed: (name: string) => `Delete ${name}`,
    deleteTitle: 'Delete this file?',
    deleteMessage: (name: string) =>
      `“${name}” and everything learnt from it will be removed from the knowledge base for everyone.`,
    deleted: (name: string) => `${name} was deleted.`,
    notDeleted: (name: string, reason: string) => `${name} could not be deleted: ${reason}`,
    onlyUploaderMayDelete: 'only its uploader or a super admin may delete it.',
  },
  'zh-CN': {
    knowledgeBase: '知识库',
    fileCount: (count) => `${formatInteger(count)} 个文件`,
    dropHere: '将 PDF 文件拖放到这里',
    or: '或',
    choose: '选择 PDF 文件…',
    dropHint: '请上传文字可选中的 PDF。每个文件都会被读取、切分并建立索引。',
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
    processing: '已上传，正在读取文字并建立索引…',
    addedResult: (pages, chunks) =>
      `已添加：${formatInteger(pages)} 页，${formatInteger(chunks)} 个文本块。`,
    duplicate: (name) => `知识库中已有相同文件“${name}”，未重复添加。`,
    cancelled: '已取消。',
    cancel: '取消',
    cancelUpload: (name) => `取消上传 ${name}`,
    notUploaded: (reason) => `未上传：${reason}`,
    listFailed: (reason) => `无法加载文件列表：${reason}`,
    loading: '正在加载文件…',
    emptyTitle: '还没有文档',
    empty: '上传一个 PDF，就可以开始就它提问。',
    selected: (count) =>
      `已选择 ${formatInteger(count)} 个文件：提问时只在${count === 1 ? '该文件' : '这些文件'}中查找。`,
    clearSelection: '取消选择',
    selectTitle: '勾选后，提问只在此文件中查找',
    meta: (pages, chunks, size) =>
      `${formatInteger(pages)} 页 · ${formatInteger(chunks)} 个文本块 · ${size}`,
    download: '下载',
    downloadNamed: (name) => `下载 ${name}`,
    delete: '删除',
    deleteNamed: (name) => `删除 ${name}`,
    deleteTitle: '删除此文件？',
    deleteMessage: (name) =>
      `“${name}”及从中提取的全部内容将从知识库中删除，所有人都将无法再使用。`,
    deleted: (name) => `已删除 ${name}。`,
    notDeleted: (name, reason) => `无法删除 ${name}：${reason}`,
    onlyUploaderMayDelete: '只有上传者或超级管理员可以删除它。',
  },
});
