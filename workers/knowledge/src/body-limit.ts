import type { BodyLimit, Route } from '#shared/service';
import { knowledgeConfig } from './config';
import { tooLarge } from './handlers/upload';

// Room for the multipart framing around the file itself.
const MULTIPART_OVERHEAD = 64 * 1024;
// Every other knowledge request is a small query or form.
const OTHER_REQUESTS = 16 * 1024;

/**
 * Each route's body limit, applied before anything reads the body, the token check included:
 * an upload may be MAX_UPLOAD_BYTES (plus its multipart framing), anything else is small.
 */
export function knowledgeBodyLimit(route: Route, env: KnowledgeEnv): BodyLimit {
  if (route.name !== 'Upload') return { bytes: OTHER_REQUESTS };
  const limit = knowledgeConfig(env).ingest.maxUploadBytes;
  return { bytes: limit + MULTIPART_OVERHEAD, tooLarge: () => tooLarge(limit) };
}
