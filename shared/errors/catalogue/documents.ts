import { errorGroup } from './entry.ts';

/**
 * Why an uploaded document was refused (at upload: 415/422) or its processing failed (a
 * file's `error_code`). `pdf_*` for PDFs, `document_*` for the other formats; the wire
 * detail may name the format and the limit that was passed.
 */
export const documentErrors = errorGroup({
  /** Says what to do with the formats offices still keep (.doc, .wps, .ofd): the service
   *  reads none of them, and the reader may not know that saving as .docx or PDF is the way. */
  unsupported_format: {
    status: 415,
    documentFault: true,
    en: 'The file is not a document the service can read. Upload a PDF, a Word document (.docx), HTML, Markdown or plain text. If it is an older Word (.doc), WPS (.wps) or OFD file, save it as .docx or PDF first and upload that.',
    zh: '该文件不是服务能够读取的文档。请上传 PDF、Word 文档（.docx）、HTML、Markdown 或纯文本文件。旧版 Word（.doc）、WPS（.wps）或 OFD 文件，请先另存为 .docx 或 PDF 再上传。',
  },
  pdf_encrypted: {
    status: 422,
    documentFault: true,
    en: 'The PDF is password-protected. Remove the password (for example by printing it to a new PDF) and upload it again.',
    zh: '该 PDF 设有密码保护。请移除密码（例如将其打印为新的 PDF）后重新上传。',
  },
  pdf_corrupt: {
    status: 422,
    documentFault: true,
    en: 'The PDF could not be read: it is damaged or incomplete. Download or export it again and retry.',
    zh: '无法读取该 PDF：文件已损坏或不完整。请重新下载或导出后再试。',
  },
  pdf_too_many_pages: {
    status: 422,
    documentFault: true,
    en: 'The PDF has more pages than allowed. Split it into smaller documents.',
    zh: '该 PDF 的页数超过了上限。请将其拆分为较小的文档。',
  },
  pdf_too_complex: {
    status: 422,
    documentFault: true,
    en: 'The PDF needs more work to read than allowed (its content decompresses to too much data, or its pages hold too much text). Save or print it again as a new PDF, or split it into smaller documents, and upload that.',
    zh: '读取该 PDF 所需的处理量超过了上限（内容解压后数据过多，或页面文字过多）。请将其重新保存或打印为新的 PDF，或拆分为较小的文档后上传。',
  },
  /** Only when OCR is switched off (OCR=off, or no text reader configured). */
  pdf_no_text: {
    status: 422,
    en: 'The PDF contains no text that can be extracted, for example because it is a scan, and text recognition (OCR) is switched off on this service. Ask an administrator to switch it on, or upload a PDF with selectable text.',
    zh: '该 PDF 中没有可提取的文字（例如它是扫描件），而本服务未开启文字识别（OCR）。请联系管理员开启，或上传文字可选中的 PDF。',
  },
  /** OCR read every page without a text layer and found no text either. */
  pdf_ocr_no_text: {
    status: 422,
    documentFault: true,
    en: 'The PDF has no text layer, and text recognition (OCR) found no legible text on its pages. If it is a scan, scan it again at 200 dpi or more, upright and in focus, and upload it again.',
    zh: '该 PDF 没有文字层，文字识别（OCR）也未能在页面上识别出文字。如果是扫描件，请以 200 dpi 以上的分辨率重新扫描（页面端正、清晰）后再上传。',
  },
  /** Recorded while an OCR step waits to be retried: the file is still processing. */
  ocr_unavailable: {
    status: 503,
    en: 'Waiting for the text reader (OCR) for scanned pages: it is unavailable or busy right now. The file is retried automatically.',
    zh: '正在等待扫描页文字识别（OCR）服务：该服务暂时不可用或繁忙，系统会自动重试。',
  },
  /** The OCR retries ran out. */
  ocr_gave_up: {
    status: 503,
    en: 'The text reader (OCR) for scanned pages stayed unavailable, so the file could not be read. Retry the file later; if it keeps failing, ask an administrator to check the OCR service.',
    zh: '扫描页文字识别（OCR）服务持续不可用，文件未能读取。请稍后重试该文件；若仍失败，请联系管理员检查 OCR 服务。',
  },
  document_encrypted: {
    status: 422,
    documentFault: true,
    en: 'The document is password-protected. Remove the password and upload it again.',
    zh: '该文档设有密码保护。请移除密码后重新上传。',
  },
  document_corrupt: {
    status: 422,
    documentFault: true,
    en: 'The document could not be read: it is damaged or incomplete. Save or export it again and retry.',
    zh: '无法读取该文档：文件已损坏或不完整。请重新保存或导出后再试。',
  },
  document_too_many_pages: {
    status: 422,
    documentFault: true,
    en: 'The document has more sections than allowed. Split it into smaller documents.',
    zh: '该文档的章节数超过了上限。请将其拆分为较小的文档。',
  },
  document_too_complex: {
    status: 422,
    documentFault: true,
    en: 'The document is too large or too complex to read. Split it into smaller documents, or save it again as PDF or plain text.',
    zh: '该文档过大或过于复杂，无法读取。请将其拆分为较小的文档，或另存为 PDF 或纯文本后上传。',
  },
  document_no_text: {
    status: 422,
    documentFault: true,
    en: 'The document contains no text.',
    zh: '该文档中没有文字。',
  },
  document_bad_encoding: {
    status: 422,
    documentFault: true,
    en: 'The text is not valid UTF-8, UTF-16 or GB18030. Save it as UTF-8 and upload it again.',
    zh: '该文本不是有效的 UTF-8、UTF-16 或 GB18030 编码。请将其另存为 UTF-8 后重新上传。',
  },
  /** A file whose processing failed for a reason not its own (the cause is in the log). */
  ingest_failed: {
    status: 500,
    en: 'The file could not be processed. Retry it, or delete it and upload it again.',
    zh: '无法处理该文件。请重试，或将其删除后重新上传。',
  },
  /** A file whose processing stopped at the same point again and again. */
  ingest_gave_up: {
    status: 422,
    en: 'Processing the file stopped again and again at the same point, so it was given up. It may need more memory or time than allowed: save it again (for example as PDF or plain text), or split it, and upload it again.',
    zh: '该文件的处理多次在同一处中断，已放弃处理。它可能需要超出允许范围的内存或时间：请另存为其他格式（例如 PDF 或纯文本）或拆分后重新上传。',
  },
  document_reader_failed: {
    status: 503,
    en: 'Reading the document failed.',
    zh: '读取文档失败。',
  },
  reader_unavailable: {
    status: 503,
    en: 'The document reader is unavailable right now. Try again later.',
    zh: '文档读取服务暂时不可用，请稍后再试。',
  },
});
