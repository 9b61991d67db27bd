// The settings every worker session searches with (migrations 0004 and 0016, set on the
// database): they decide whether the served vector search finds what exact search finds
// (docs/decisions/, index designs: recall@10 0.867 at ef_search 100, 0.993 at 600 over 10,000 chunks).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { asAppRole } from '../helpers/database';

it('searches with ef_search 600, relaxed iterative scans and SSD page costs', async () => {
  const settings = await asAppRole(undefined, async (tx) => {
    // pgvector's settings are known once it is loaded in the session.
    await tx.execute(sql`select '[1]'::vector`);
    const { rows } = await tx.execute<Record<string, string>>(sql`
      select current_setting('hnsw.ef_search') as ef_search,
             current_setting('hnsw.iterative_scan') as iterative_scan,
             current_setting('random_page_cost') as random_page_cost`);
    return rows[0];
  });
  expect(settings).toEqual({
    ef_search: '600',
    iterative_scan: 'relaxed_order',
    random_page_cost: '1.1',
  });
});
