import { z } from 'zod';
import { DocumentFilters } from '#shared/contracts/document-metadata';

// What each tool takes, and how it describes itself to a client's model, in English and
// Chinese: a model reads the description to choose a tool, and users of this service ask in
// both. Every size is bounded: a tool call is refused before it reaches knowledge or the model.

/** A question as chat takes one (CHAT_MAX_PROMPT_CHARS defaults to 4,000; it is checked too). */
const Question = z.string().trim().min(1).max(4000);
const Id = z.uuid();

export const SEARCH = {
  description:
    'Search the knowledge base for the passages most relevant to a question (hybrid: meaning and ' +
    'keywords). Returns each passage with its file (id, name), page, chunk id, heading path, ' +
    'similarity and text. Only documents the API key’s user can read are searched. / ' +
    '在知识库中检索与问题最相关的片段（语义与关键词混合检索），返回每个片段的文件（编号、名称）、页码、' +
    '片段编号、标题路径、相似度和原文。只检索该 API 密钥的用户有权阅读的文件。',
  inputSchema: {
    question: Question.describe('What to search for. / 检索的问题。'),
    collection: Id.optional().describe(
      'Only this collection (its id); every readable collection when left out. / 只检索此资料集（编号）；不填则检索全部可读资料集。',
    ),
    filters: DocumentFilters.optional().describe(
      'Only documents that match: issuer, doc_number (文号), doc_type, issued/effective date ranges (YYYY-MM-DD), in_force. / 只检索符合条件的文件：发文机关、文号、文种、成文/施行日期范围、是否有效。',
    ),
    top: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(10)
      .describe('How many passages (1–50, default 10). / 返回片段数（1–50，默认 10）。'),
  },
};

export const ASK = {
  description:
    'Answer a question from the knowledge base only, with citations (file, page, chunk id) and ' +
    'whether each sentence of the answer was found in its sources. When nothing relevant is ' +
    'found the result is an error with the refusal text. / 仅依据知识库回答问题，附引用（文件、页码、' +
    '片段编号）及答案每句是否能在出处中找到。知识库中没有相关内容时，返回错误结果及拒答说明。',
  inputSchema: {
    question: Question.describe('The question. / 问题。'),
    collection: Id.optional().describe('Only this collection (its id). / 只依据此资料集（编号）。'),
    files: z
      .array(Id)
      .min(1)
      .max(100)
      .optional()
      .describe(
        'Only these files (ids; not together with collection). / 只依据这些文件（编号；不能与资料集同时指定）。',
      ),
  },
};

export const LIST_FILES = {
  description:
    'List the files the API key’s user can read, newest first, 50 to a page: id, name, ' +
    'collection, status, pages and document metadata (title, 文号, issuers, dates). / 列出该用户' +
    '可读的文件（最新在前，每页 50 个）：编号、名称、资料集、状态、页数及文件信息（标题、文号、发文机关、日期）。',
  inputSchema: {
    collection: Id.optional().describe('Only this collection (its id). / 只列出此资料集（编号）。'),
    filters: DocumentFilters.optional().describe(
      'Only documents that match (as in search). / 只列出符合条件的文件（同 search）。',
    ),
    page: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(1)
      .describe('Which page of the list (from 1). / 第几页（从 1 开始）。'),
  },
};

export const READ_PAGE = {
  description:
    'Read one page of a file (a section, for formats without pages) as it was indexed: its ' +
    'whole text. / 读取文件的一页（无页码的格式为一节）的全文（与索引时一致）。',
  inputSchema: {
    file: Id.describe(
      'The file’s id (from search or list_files). / 文件编号（来自 search 或 list_files）。',
    ),
    page: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .describe(
        'The page, from 1 (the section number for formats without pages). / 页码，从 1 开始。',
      ),
  },
};

/** Files listed per list_files page. */
export const FILES_PAGE_SIZE = 50;
