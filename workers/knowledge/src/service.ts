import type { Principal } from '#shared/auth/roles';
import type { knowledgeService } from '#shared/contracts/knowledge';
import { checkDatabase } from '#shared/db/health';
import { moduleName } from '#shared/module/module-app';
import type { ServiceImpl } from '#shared/service';
import { knowledgeConfig } from './config';
import { chatContext } from './handlers/chat-context';
import * as chunks from './handlers/chunks';
import * as fileList from './handlers/file-list';
import { PostFileStates } from './handlers/file-states';
import * as reindex from './handlers/reindex';
import * as retrievalTests from './handlers/retrieval-tests';
import * as versions from './handlers/versions';
import {
  addMember,
  changeMember,
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  listMembers,
  removeMember,
  renameCollection,
} from './handlers/collections';
import { download, list, move, progress, remove, retry, status } from './handlers/files';
import { deleteFileRelation, postRelation, putMetadata } from './handlers/metadata';
import { query } from './handlers/query';
import { meteredSearch } from './usage/metered-search';
import { upload } from './handlers/upload';
import { getChunk, getPage } from './handlers/viewer';
import { KNOWLEDGE_MODULE } from './module';
import { checkReader } from './pipeline/read-document';
import { reviveSoon } from './pipeline/watchdog';

/** The knowledge service, the same over HTTP and RPC. */
export const knowledgeImpl: ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal> = {
  GetHealth: async (_, ctx) => {
    // After a local restart the first health check (npm run dev waits on it) gets stalled
    // ingests going again; on Cloudflare the cron trigger does it too.
    reviveSoon(ctx.env, ctx.log, ctx.waitUntil);
    const [database, reader] = await Promise.all([
      checkDatabase(knowledgeConfig(ctx.env).database),
      checkReader(ctx.env.READER),
    ]);
    return { module: moduleName(ctx.env, KNOWLEDGE_MODULE), database, reader };
  },
  Upload: upload,
  GetFileStatus: status,
  GetFileProgress: progress,
  PostFileRetry: retry,
  GetList: list,
  GetQuery: (params, ctx) =>
    meteredSearch(
      ctx,
      { text: params.text, collectionIds: params.collection_id ?? null },
      () => query(params, ctx),
      (results) => results,
    ),
  // Limited and metered only when it embeds the question (chat-context.ts).
  GetContext: chatContext,
  GetChunk: getChunk,
  GetPage: getPage,
  DeleteFile: remove,
  GetDownload: download,
  PostFileMove: move,
  PutFileMetadata: putMetadata,
  PostFileRelation: postRelation,
  DeleteFileRelation: deleteFileRelation,
  ...fileList,
  ...chunks,
  ...versions,
  PostFileStates,
  ...retrievalTests,
  ...reindex,
  GetCollections: listCollections,
  GetCollection: getCollection,
  PostCollection: createCollection,
  PutCollection: renameCollection,
  DeleteCollection: deleteCollection,
  GetCollectionMembers: listMembers,
  PostCollectionMember: addMember,
  PutCollectionMember: changeMember,
  DeleteCollectionMember: removeMember,
};
