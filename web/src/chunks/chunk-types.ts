import type { Api } from '../api/services';

/** A file's chunks, a page at a time, as GetChunks answers them. */
export type FileChunks = Awaited<ReturnType<Api['knowledge']['GetChunks']>>;
/** One chunk of a file, in the file's order. */
export type FileChunk = FileChunks['items'][number];
