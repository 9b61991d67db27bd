import { translations } from '../define';
import { formatInteger } from '../format';
import type { NotInForce } from './metadata';

type Superseded = Exclude<NotInForce, 'expired'>;

/** The document viewer: a cited file at its page, the passage highlighted. */
export const viewer = translations({
  en: {
    title: 'Document',
    close: 'Close',
    previousPage: 'Previous page',
    nextPage: 'Next page',
    pageOf: (page: number, pages: number) =>
      `Page ${formatInteger(page)} of ${formatInteger(pages)}`,
    sectionOf: (page: number, pages: number) =>
      `Section ${formatInteger(page)} of ${formatInteger(pages)}`,
    pageImage: (page: number) => `Page ${formatInteger(page)}`,
    loading: 'Opening the document…',
    notFound: 'This document does not exist, or you may not read it.',
    failed: 'The document could not be shown. Try again, or download the original.',
    download: 'Download the original',
    passage: 'Cited passage',
    passageHere: 'Highlighted on this page.',
    passageElsewhere: (page: number) => `The cited passage is on page ${formatInteger(page)}.`,
    passageUnplaced:
      'The passage is on this page; where exactly was not recorded when it was indexed.',
    showPassage: 'Go to the passage',
    ocrPage:
      'This page is a scan read by OCR: the boxes show where the passage was recognised. Check the wording against the image.',
    ocrPageUnmarked: 'This page is a scan read by OCR. Check the wording against the image.',
    repairedPage: 'This page’s text layer had font-map faults, repaired when it was indexed.',
    notInForce: (kind: Superseded, by: string | null): string =>
      ({
        repealed: by ? `This document was repealed by ${by}.` : 'This document was repealed.',
        replaced: by ? `This document was replaced by ${by}.` : 'This document was replaced.',
        amended: by
          ? `This document was amended by ${by}: parts of it may no longer hold.`
          : 'This document was amended: parts of it may no longer hold.',
      })[kind] + ' Check what is in force before acting on it.',
    expired: (date: string | null): string =>
      `${date ? `This document expired on ${date}.` : 'This document has expired.'} Check what is in force before acting on it.`,
  },
  zh: {
    title: '文档',
    close: '关闭',
    previousPage: '上一页',
    nextPage: '下一页',
    pageOf: (page, pages) => `第 ${formatInteger(page)} 页，共 ${formatInteger(pages)} 页`,
    sectionOf: (page, pages) => `第 ${formatInteger(page)} 节，共 ${formatInteger(pages)} 节`,
    pageImage: (page) => `第 ${formatInteger(page)} 页`,
    loading: '正在打开文档…',
    notFound: '文档不存在，或您无权查看。',
    failed: '文档无法显示。请重试，或下载原文件。',
    download: '下载原文件',
    passage: '引用片段',
    passageHere: '已在本页标出。',
    passageElsewhere: (page) => `引用片段在第 ${formatInteger(page)} 页。`,
    passageUnplaced: '引用片段在本页；入库时未记录其确切位置。',
    showPassage: '转到引用片段',
    ocrPage: '本页为扫描件，文字经 OCR 识别：方框为识别出的引用位置。请对照图像核对文字。',
    ocrPageUnmarked: '本页为扫描件，文字经 OCR 识别。请对照图像核对文字。',
    repairedPage: '本页文字层存在字体映射错误，入库时已修复。',
    notInForce: (kind, by) =>
      ({
        repealed: by ? `本文件已被 ${by} 废止。` : '本文件已废止。',
        replaced: by ? `本文件已被 ${by} 替代。` : '本文件已被替代。',
        amended: by
          ? `本文件已被 ${by} 修改，部分内容可能已不再适用。`
          : '本文件已被修改，部分内容可能已不再适用。',
      })[kind] + '请以现行有效的文件为准。',
    expired: (date) =>
      `${date ? `本文件已于 ${date} 失效。` : '本文件已失效。'}请以现行有效的文件为准。`,
  },
});
