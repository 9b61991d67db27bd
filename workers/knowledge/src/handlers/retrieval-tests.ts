import { principalOf } from '#shared/auth/principal';
import { AppError, notFound } from '#shared/errors/app-error';
import { accessDenied } from '#shared/service';
import { knowledgeDb, type KnowledgeCall } from '../call';
import { scoreCase, summarise } from '../retrieval/score-run';
import type { SearchMode } from '../store/search';
import {
  deleteTest,
  insertTest,
  testById,
  testsOf,
  type RetrievalTestRow,
} from '../store/retrieval-tests';
import { collectionFor } from './collection-access';
import { fileFor } from './files';
import { meteredSearch } from '../usage/metered-search';
import { query } from './query';

/**
 * The most cases one run searches (the oldest first): each is one embedding call and one search,
 * so a run stays within a request's subrequests and time. Tens of cases are the expected size.
 */
export const MAX_RUN_CASES = 200;

/** Searches run at once during a run: the embedding endpoint and the database share the load. */
const RUN_CONCURRENCY = 4;

const testView = (row: RetrievalTestRow) => ({
  id: row.id,
  collection_id: row.collectionId,
  question: row.question,
  file_id: row.fileId,
  file_name: row.fileName,
  page: row.page,
  section: row.section,
  created_by: row.createdByName,
  created_at: row.createdAt.toISOString(),
});

/** A collection's saved questions: for anyone who can read it (else 404). */
export async function GetRetrievalTests(
  { collection_id }: { collection_id: string },
  ctx: KnowledgeCall,
) {
  await collectionFor(ctx, collection_id, 'viewer');
  const kdb = knowledgeDb(ctx);
  const rows = await kdb.run(testsOf(kdb.db, collection_id));
  return rows.map(testView);
}

/**
 * Saves a question with the file (and page) expected to answer it. The collection's editors and
 * owners; the file must be one the caller can read in that collection, the page one of its pages.
 */
export async function PostRetrievalTest(
  {
    body,
  }: {
    body: { collection_id: string; question: string; file_id: string; page?: number | null };
  },
  ctx: KnowledgeCall,
) {
  const principal = principalOf(ctx);
  await collectionFor(ctx, body.collection_id, 'editor');
  const { file } = await fileFor(ctx, body.file_id, { collection: body.collection_id });
  const page = body.page ?? null;
  // A file's page count is 0 until it is read: the page is checked once it is known.
  if (page !== null && file.pages > 0 && page > file.pages) {
    throw new AppError('validation_failed', {
      errors: [{ field: 'page', message: `The file has ${file.pages} pages.` }],
    });
  }
  const kdb = knowledgeDb(ctx);
  const [inserted] = await kdb.run(
    insertTest(kdb.db, {
      collectionId: body.collection_id,
      question: body.question,
      fileId: file.id,
      page,
      createdBy: principal.id,
      createdByName: principal.username,
    }),
  );
  // Read back: the expected section's heading comes from the file's pages.
  const [saved] = await kdb.run(testById(kdb.db, inserted!.id));
  return testView(saved!);
}

/** Removes a saved question: 404 when the caller cannot see it, 403 when they only read it. */
export async function DeleteRetrievalTest({ id }: { id: number }, ctx: KnowledgeCall) {
  const kdb = knowledgeDb(ctx);
  const [found] = await kdb.run(testById(kdb.db, id));
  if (!found) throw notFound('retrieval test');
  const [deleted] = await kdb.run(deleteTest(kdb.db, id));
  if (!deleted) throw accessDenied('needs editor in the collection');
}

/**
 * Runs the collection's saved questions through the same search as GetQuery (the query
 * handler, limited to the collection) and scores where each expected file (and page) ranked.
 */
export async function PostRetrievalTestRun(
  { body }: { body: { collection_id: string; mode: SearchMode; top: number } },
  ctx: KnowledgeCall,
) {
  const { collection_id, mode, top } = body;
  await collectionFor(ctx, collection_id, 'viewer');
  const kdb = knowledgeDb(ctx);
  const tests = await kdb.run(testsOf(kdb.db, collection_id, MAX_RUN_CASES));
  // Each case embeds its question: a run is metered and limited as one search of the collection.
  const search = {
    text: tests.map((test) => test.question).join('\n'),
    collectionIds: [collection_id],
  };
  const cases = await meteredSearch(ctx, search, () => runCases(ctx, tests, body));
  return { collection_id, mode, top, cases, ...summarise(cases.map((c) => c.rank)) };
}

/** Each saved question searched (a few at a time) and where its expected file and page ranked. */
function runCases(
  ctx: KnowledgeCall,
  tests: readonly RetrievalTestRow[],
  { collection_id, mode, top }: { collection_id: string; mode: SearchMode; top: number },
) {
  return mapLimited(tests, RUN_CONCURRENCY, async (test) => {
    const results = await query(
      { text: test.question, top, collection_id: [collection_id], mode },
      ctx,
    );
    const { rank, similarity } = scoreCase({ file_id: test.fileId, page: test.page }, results);
    return {
      id: test.id,
      question: test.question,
      file_id: test.fileId,
      page: test.page,
      rank,
      similarity,
    };
  });
}

/** `work` over `items`, at most `limit` at a time, the results in the items' order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
