import type { MiddlewareHandler } from 'hono';
import { limitBody } from '../../../shared/module/body-limit';
import { knowledgeConfig } from './config';
import { tooLarge } from './handlers/upload';

// Room for the multipart framing around the file itself.
const MULTIPART_OVERHEAD = 64 * 1024;

/** Refuses an upload over the size limit with 413 before a byte of it is parsed. */
export const uploadLimit: MiddlewareHandler<{ Bindings: KnowledgeEnv }> = (c, next) => {
  const limit = knowledgeConfig(c.env).ingest.maxUploadBytes;
  return limitBody(limit + MULTIPART_OVERHEAD, () => tooLarge(limit))(c, next);
};
