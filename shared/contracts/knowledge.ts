import { z } from 'zod';
import { defineService, fileDownload, fileParam, method } from '../service';
import { FileIds, ModuleHealth } from './common';

export const KnowledgeFile = z.object({
  id: z.uuid(),
  name: z.string(),
  size: z.number().int(),
  pages: z.number().int(),
  chunks: z.number().int(),
  uploader: z.object({ id: z.uuid(), username: z.string() }),
  created_at: z.string(),
  /** The extracted text, pages separated by form feeds; only with `with_content=true`. */
  content: z.string().optional(),
});

export const UploadResult = z.object({
  id: z.uuid(),
  name: z.string(),
  pages: z.number().int(),
  chunks: z.number().int(),
  /** True when the same bytes were already stored: nothing was embedded again. */
  duplicate: z.boolean(),
});

export const QueryResult = z.object({
  id: z.number().int(),
  /** 1 − cosine distance. */
  similarity: z.number(),
  content: z.string(),
  file_id: z.uuid(),
  file_name: z.string(),
  /** 1-based, as PDF viewers count. */
  page: z.number().int(),
});

/** The knowledge module: PDFs into pgvector, similarity queries. */
export const knowledgeService = defineService({
  name: 'knowledge',
  prefix: '/moduleknowledge',
  doc: 'Uploaded PDFs are parsed, chunked, embedded and stored in Postgres with pgvector. The knowledge base is shared by all users.',
  annotatedOnly: true,
  methods: {
    GetHealth: method({
      doc: 'Liveness and a database round trip; chat calls it over RPC. @role(guest) @grpc',
      output: ModuleHealth,
    }),
    Upload: method({
      doc: `Uploads one PDF (multipart, one file part named \`file\`). Its text is extracted page by
page, chunked, embedded and stored in one transaction. The same bytes uploaded again answer the
stored file with \`duplicate: true\`. Too large → 413; not a PDF → 415; encrypted, damaged,
too many pages or no extractable text → 422; model endpoint down → 502.`,
      params: { file: fileParam() },
      output: UploadResult,
    }),
    GetList: method({
      doc: 'The files of the knowledge base, newest first; optionally only some, optionally with their text.',
      params: { file_id: FileIds.optional(), with_content: z.boolean().optional() },
      output: z.array(KnowledgeFile),
    }),
    GetQuery: method({
      doc: `The chunks most similar to \`text\`, highest similarity first. Over RPC this is the
spec's QueryReq: \`Text\` is \`text\`, \`Top\` is \`top\`. @grpc`,
      params: {
        text: z.string().trim().min(1).max(8000),
        top: z.number().int().min(1).max(50).default(10),
        file_id: FileIds.optional(),
      },
      output: z.array(QueryResult),
    }),
    DeleteFile: method({
      doc: 'Deletes a file with its chunks and stored original: its uploader or a SUPER_ADMIN.',
      params: { id: z.uuid() },
    }),
    GetDownload: method({
      doc: 'The original PDF as uploaded.',
      params: { id: z.uuid() },
      output: fileDownload({ contentTypes: ['application/pdf'] }),
    }),
  },
});
