/**
 * The document reader's worker (reader/wrangler.toml): its one entrypoint is reached over the
 * knowledge worker's READER service binding, never over HTTP.
 */
export { DocumentReader } from './document-reader';

export default {
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler;
