/**
 * The web app's only way to the service: the typed HTTP clients built from the three service
 * declarations (shared/contracts), exactly as any other client uses them — same routes,
 * `{"data": …}` envelope, problem JSON errors and SSE stream.
 *
 * This folder is type-checked with the Workers types like shared/ (web/tsconfig.api.json);
 * the DOM code sees it through its declarations (web/tsconfig.json references it).
 */
import type { z } from 'zod';
import {
  authService,
  type ApiKey as ApiKeySchema,
  type Login as LoginSchema,
  type ManagedUser as ManagedUserSchema,
  type User as UserSchema,
} from '#shared/contracts/auth';
import {
  chatService,
  type ChatConversation as ChatConversationSchema,
  type ChatDone as ChatDoneSchema,
  type ChatMessage as ChatMessageSchema,
  type ChatRefusal as ChatRefusalSchema,
  type ChatSource as ChatSourceSchema,
  type Conversation as ConversationSchema,
  type ConversationMessage as ConversationMessageSchema,
  type Feedback as FeedbackSchema,
} from '#shared/contracts/chat';
import {
  knowledgeService,
  type Collection as CollectionSchema,
  type CollectionMember as CollectionMemberSchema,
  type FileProgress as FileProgressSchema,
  type ChunkLocation as ChunkLocationSchema,
  type FilePage as FilePageSchema,
  type KnowledgeFile as KnowledgeFileSchema,
  type UploadResult as UploadResultSchema,
} from '#shared/contracts/knowledge';
import { AppError } from '#shared/errors/app-error';
import { createClient, type ServiceClient } from '#shared/service/client';

export type User = z.output<typeof UserSchema>;
export type ManagedUser = z.output<typeof ManagedUserSchema>;
export type Login = z.output<typeof LoginSchema>;
export type ApiKey = z.output<typeof ApiKeySchema>;
export type KnowledgeFile = z.output<typeof KnowledgeFileSchema>;
export type FileProgress = z.output<typeof FileProgressSchema>;
export type ChunkLocation = z.output<typeof ChunkLocationSchema>;
export type FilePage = z.output<typeof FilePageSchema>;
export type UploadResult = z.output<typeof UploadResultSchema>;
export type Collection = z.output<typeof CollectionSchema>;
export type CollectionMember = z.output<typeof CollectionMemberSchema>;
export type CollectionRole = Collection['role'];
export type ChatMessage = z.output<typeof ChatMessageSchema>;
export type ChatSource = z.output<typeof ChatSourceSchema>;
/** A cited file as it stands now (a source's `now`, PostFileStates). */
export type FileNow = NonNullable<ChatSource['now']>;
export type ChatRefusal = z.output<typeof ChatRefusalSchema>;
export type ChatDone = z.output<typeof ChatDoneSchema>;
export type ChatConversation = z.output<typeof ChatConversationSchema>;
export type Conversation = z.output<typeof ConversationSchema>;
export type ConversationMessage = z.output<typeof ConversationMessageSchema>;
export type Feedback = z.output<typeof FeedbackSchema>;
export type FeedbackRating = Feedback['rating'];

/** Sends one request; the browser's fetch unless a transport (XHR for uploads) is given. */
export type Transport = (request: Request) => Promise<Response>;

export interface Api {
  auth: ServiceClient<typeof authService>;
  knowledge: ServiceClient<typeof knowledgeService>;
  chat: ServiceClient<typeof chatService>;
  /**
   * Uploads one document through `transport` (XMLHttpRequest: fetch reports no upload
   * progress) and answers as soon as it is stored, without waiting for it to be read and
   * indexed: the file's `status` is then `queued` or `processing`, and its progress is followed
   * with GetList / GetFileStatus. (A service that ignores the request answers `ready`.)
   * Without `collectionId` it goes into the shared collection.
   */
  upload(
    file: File,
    collectionId: string | undefined,
    transport: Transport,
    signal?: AbortSignal,
  ): Promise<UploadResult>;
  /**
   * The address of a stored file, for the link a user sees: it carries no token (a token in
   * a URL shows on hover, stays in history and lands in proxy logs). Following it is
   * `download`'s job, with the token in the Authorization header.
   */
  downloadUrl(fileId: string): string;
  /** Fetches a stored file with the token in the header; its bytes, type and name. */
  download(fileId: string, signal?: AbortSignal): Promise<{ blob: Blob; filename?: string }>;
  /**
   * Where a reader that fetches by itself (PDF.js, with range requests) gets a stored file:
   * its address and the headers to send with every request (the token, never in the URL).
   */
  originalSource(fileId: string): { url: string; headers: Record<string, string> };
}

export function createApi(baseUrl: string, token: () => string | undefined): Api {
  const options = { baseUrl, token };
  const download = knowledgeService.routes.find((route) => route.name === 'GetDownload');
  if (!download) throw new Error('the knowledge service declares no GetDownload');
  const downloadUrl = (fileId: string) => {
    const url = new URL(download.fullPath, baseUrl);
    url.searchParams.set('id', fileId);
    return url.pathname + url.search;
  };
  return {
    auth: createClient(authService, options),
    knowledge: createClient(knowledgeService, options),
    chat: createClient(chatService, options),
    // `Prefer: respond-async` (RFC 7240) is the declared twin of `?async=true`: the typed
    // client places declared parameters only, and on a multipart route a scalar would travel
    // as a form field, not in the query string the service reads `async` from. The declared
    // `collection_id` does travel as a form field, which the service reads like the query.
    upload: (file, collectionId, transport, signal) =>
      createClient(knowledgeService, { ...options, fetch: transport }).Upload(
        { file, collection_id: collectionId },
        { signal, headers: { Prefer: 'respond-async' } },
      ),
    downloadUrl,
    originalSource(fileId) {
      const bearer = token();
      const headers: Record<string, string> = {};
      if (bearer) headers.Authorization = `Bearer ${bearer}`;
      return { url: downloadUrl(fileId), headers };
    },
    async download(fileId, signal) {
      const file = await createClient(knowledgeService, options).GetDownload(
        { id: fileId },
        { signal },
      );
      const blob = await new Response(file.body, {
        headers: { 'Content-Type': file.contentType },
      }).blob();
      return { blob, filename: file.filename };
    },
  };
}

/** A refused or failed call, in the words the service used. */
export interface Failure {
  status: number;
  /** Stable code: `unauthenticated` (401), `permission_denied` (403), `file_too_large`, … */
  code: string;
  /** The problem's `detail`, or the plain-text refusal (`Unauthorised`, `Access denied`). */
  detail: string;
  /** Field-level validation messages, when the service gave them. */
  fields: { field: string; message: string }[];
}

/** The failure behind an error the clients threw; undefined for anything else (network, abort). */
export function failureOf(err: unknown): Failure | undefined {
  if (!(err instanceof AppError)) return undefined;
  return { status: err.status, code: err.code, detail: err.message, fields: err.errors ?? [] };
}
