// Every keyword lookup scans the GIN index's whole pending list (entries inserted but not yet
// merged into the index). The local database never vacuums, so with the default 4 MB limit
// the list grew with each ingest and made every term's lookup ~2 ms slower over 10,000
// chunks. Migration 0015 caps it at 256 kB: an insert that fills it merges it.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { quoteLexeme } from '../../workers/knowledge/src/ingest/search-terms';
import { inRolledBackTransaction, scratchFiles } from '../helpers/database';

const CHUNKS = 1000;
const TERMS_PER_CHUNK = 80;
/** 256 kB of 8 kB pages. */
const MAX_PENDING_PAGES = 32;

it('keeps the keyword index pending list within 256 kB however much is inserted', async () => {
  const pendingPages = await inRolledBackTransaction(async (tx) => {
    const { collection, files } = await scratchFiles(tx, 1, CHUNKS);
    // ~3 MB of pending entries with the default limit: 80,000 (term, row) pairs.
    const terms = Array.from({ length: TERMS_PER_CHUNK }, (_, j) => quoteLexeme(`pendterm${j}`));
    await tx.execute(sql`
      insert into chunks (file_id, collection_id, page, index, content, embedding, search_terms)
      select ${files[0]}::uuid, ${collection}::uuid, 1, i, 'chunk ' || i,
             array_fill(0.01::real, array[1536])::vector,
             (${terms.join(' ')} || ' ' || ${quoteLexeme('row')} || i)::tsvector
      from generate_series(1, ${CHUNKS}) as i`);
    const [merged] = (
      await tx.execute<{ pages: string }>(
        sql`select gin_clean_pending_list('chunks_search_terms_idx'::regclass)::text as pages`,
      )
    ).rows;
    return Number(merged!.pages);
  });
  expect(pendingPages).toBeLessThanOrEqual(MAX_PENDING_PAGES);
});
