import { translations } from '../define';
import { formatList } from '../format';

/**
 * What the service's problem `code`s mean, in words for the page. Keyed by the stable code,
 * never by the English `detail`: a code not listed here shows the service's own detail (see
 * ../failure.ts). `fields` are the names of invalid fields, when the service lists them.
 */
export const errors = translations({
  en: {
    network: 'The service could not be reached. Check your connection and try again.',
    unauthenticated: 'Your session has expired or was refused.',
    permission_denied: 'You are not allowed to do that.',
    bad_credentials: 'Wrong username or password.',
    too_many_attempts: 'Too many failed attempts. Wait a while (at most 15 minutes) and try again.',
    wrong_password: 'The current password is wrong.',
    password_changed: 'The password was changed meanwhile. Try again.',
    username_taken: 'That username is taken.',
    last_super_admin: 'The last super admin cannot be removed, disabled or made a user.',
    not_found: 'It no longer exists.',
    // Collections.
    last_owner: 'A collection keeps at least one owner: make another member owner first.',
    already_member: 'That user is already a member.',
    shared_collection:
      'The shared collection has no members and cannot be deleted: every user reads it.',
    duplicate_file: 'The same file is already in that collection.',
    validation_failed: (fields: readonly string[]) =>
      fields.length > 0
        ? `Not valid: ${formatList(fields)}.`
        : 'Some of what was entered is not valid.',
    bad_request: 'The request was not understood.',
    malformed_json: 'The request was not understood.',
    malformed_body: 'The request was not understood.',
    unsupported_media_type: 'The request was sent in a form the service does not accept.',
    body_too_large: 'What was sent is too large.',
    file_too_large: 'The file is larger than the service accepts.',
    prompt_too_long: 'The question is too long. Shorten it and ask again.',
    unsupported_format:
      'The file is not a document the service can read. Upload a PDF, a Word document (.docx), HTML, Markdown or plain text.',
    pdf_encrypted:
      'The PDF is password-protected. Remove the password (for example by printing it to a new PDF) and upload it again.',
    pdf_corrupt:
      'The PDF could not be read: it is damaged or incomplete. Download or export it again and retry.',
    pdf_too_many_pages: 'The PDF has more pages than allowed. Split it into smaller documents.',
    pdf_too_complex:
      'The PDF needs more work to read than allowed. Save or print it again as a new PDF, or split it into smaller documents, and upload that.',
    pdf_no_text:
      'The PDF contains no text that can be extracted, for example because it is a scan. Upload a PDF with selectable text, or run text recognition (OCR) on it first.',
    document_encrypted:
      'The document is password-protected. Remove the password and upload it again.',
    document_corrupt:
      'The document could not be read: it is damaged or incomplete. Save or export it again and retry.',
    document_too_many_pages:
      'The document has more sections than allowed. Split it into smaller documents.',
    document_too_complex:
      'The document is too large or too complex to read. Split it into smaller documents, or save it again as PDF or plain text.',
    document_no_text: 'The document contains no text.',
    document_bad_encoding:
      'The text is not valid UTF-8, UTF-16 or GB18030. Save it as UTF-8 and upload it again.',
    ingest_failed: 'The file could not be processed. Retry it, or delete it and upload it again.',
    ingest_gave_up:
      'Processing the file stopped again and again at the same point, so it was given up. It may need more memory or time than allowed: save it again (for example as PDF or plain text), or split it, and upload it again.',
    document_reader_failed: 'Reading the document failed.',
    reader_unavailable: 'The document reader is unavailable right now. Try again later.',
    module_unavailable: 'The service is unavailable right now. Try again in a moment.',
    login_required: 'An API key cannot do this: log in to do it.',
    api_key_required: 'This takes an API key, not a login.',
    file_deleted: 'The file was deleted while it was being processed.',
    model_unavailable: 'The language model is unavailable right now. Try again later.',
    database_unavailable: 'The database is unavailable right now. Try again later.',
    configuration_invalid: 'The service is not configured correctly. Tell an administrator.',
    internal_error: 'Something went wrong in the service. Try again.',
    rpc_protocol_error: 'The service answered in an unexpected form. Try again.',
    invalid_response: 'The service answered in an unexpected form. Try again.',
    // The chat stream's error messages (their `code`).
    no_relevant_knowledge: 'Sorry, no relevant information was found, so no answer can be given.',
    files_unavailable:
      'Sorry, the chosen files are not available (deleted, or not processed yet), so no answer can be given.',
    collections_unavailable:
      'Sorry, the chosen collection is not available to you (deleted, or you are not a member), so no answer can be given.',
    knowledge_unavailable: 'Sorry, the knowledge base is unavailable right now.',
    model_failed: 'Sorry, the answer could not be completed. Please try again.',
  },
  'zh-CN': {
    network: '无法连接到服务。请检查网络连接后重试。',
    unauthenticated: '登录已过期或被拒绝。',
    permission_denied: '你没有执行此操作的权限。',
    bad_credentials: '用户名或密码错误。',
    too_many_attempts: '失败次数过多。请稍候（最长 15 分钟）再试。',
    wrong_password: '当前密码不正确。',
    password_changed: '密码刚刚已被修改，请重试。',
    username_taken: '该用户名已被使用。',
    last_super_admin: '不能删除、停用或降级最后一位超级管理员。',
    not_found: '该项目已不存在。',
    last_owner: '资料集至少要保留一位所有者：请先将另一名成员设为所有者。',
    already_member: '该用户已经是成员。',
    shared_collection: '公共资料集没有成员，也不能删除：所有用户都能查看它。',
    duplicate_file: '该资料集中已有相同的文件。',
    validation_failed: (fields) =>
      fields.length > 0 ? `以下内容无效：${formatList(fields)}。` : '输入的部分内容无效。',
    bad_request: '服务无法理解该请求。',
    malformed_json: '服务无法理解该请求。',
    malformed_body: '服务无法理解该请求。',
    unsupported_media_type: '请求的格式不被服务接受。',
    body_too_large: '发送的内容过大。',
    file_too_large: '文件超过了服务允许的大小。',
    prompt_too_long: '问题太长，请缩短后重新提问。',
    unsupported_format:
      '该文件不是服务能够读取的文档。请上传 PDF、Word 文档（.docx）、HTML、Markdown 或纯文本文件。',
    pdf_encrypted: '该 PDF 设有密码保护。请移除密码（例如将其打印为新的 PDF）后重新上传。',
    pdf_corrupt: '无法读取该 PDF：文件已损坏或不完整。请重新下载或导出后再试。',
    pdf_too_many_pages: '该 PDF 的页数超过了上限。请将其拆分为较小的文档。',
    pdf_too_complex:
      '读取该 PDF 所需的处理量超过了上限。请将其重新保存或打印为新的 PDF，或拆分为较小的文档后上传。',
    pdf_no_text:
      '该 PDF 中没有可提取的文字（例如它是扫描件）。请上传文字可选中的 PDF，或先对其进行文字识别（OCR）。',
    document_encrypted: '该文档设有密码保护。请移除密码后重新上传。',
    document_corrupt: '无法读取该文档：文件已损坏或不完整。请重新保存或导出后再试。',
    document_too_many_pages: '该文档的章节数超过了上限。请将其拆分为较小的文档。',
    document_too_complex:
      '该文档过大或过于复杂，无法读取。请将其拆分为较小的文档，或另存为 PDF 或纯文本后上传。',
    document_no_text: '该文档中没有文字。',
    document_bad_encoding:
      '该文本不是有效的 UTF-8、UTF-16 或 GB18030 编码。请将其另存为 UTF-8 后重新上传。',
    ingest_failed: '无法处理该文件。请重试，或将其删除后重新上传。',
    ingest_gave_up:
      '该文件的处理多次在同一处中断，已放弃处理。它可能需要超出允许范围的内存或时间：请另存为其他格式（例如 PDF 或纯文本）或拆分后重新上传。',
    document_reader_failed: '读取文档失败。',
    reader_unavailable: '文档读取服务暂时不可用，请稍后再试。',
    module_unavailable: '服务暂时不可用，请稍后再试。',
    login_required: 'API 密钥不能执行此操作：请登录后再操作。',
    api_key_required: '此操作需要 API 密钥，而不是登录令牌。',
    file_deleted: '该文件在处理过程中已被删除。',
    model_unavailable: '语言模型暂时不可用，请稍后再试。',
    database_unavailable: '数据库暂时不可用，请稍后再试。',
    configuration_invalid: '服务配置有误，请联系管理员。',
    internal_error: '服务内部出错，请重试。',
    rpc_protocol_error: '服务返回了意外的内容，请重试。',
    invalid_response: '服务返回了意外的内容，请重试。',
    no_relevant_knowledge: '非常抱歉，未能检索到相关信息，无法回答。',
    files_unavailable: '非常抱歉，所选文件不可用（已删除或尚未处理完成），无法回答。',
    collections_unavailable: '非常抱歉，所选资料集不可用（已删除或你不是其成员），无法回答。',
    knowledge_unavailable: '非常抱歉，知识库暂时不可用。',
    model_failed: '非常抱歉，回答未能完成，请重试。',
  },
});
