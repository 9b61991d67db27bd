// The knowledge module's database set-up step after migration 0008: chunks stored before
// keyword search existed get their search terms. The terms come from the one tokenizer that
// ingest and query use (ingest/search-terms.ts), which SQL cannot call, so this step runs in
// Node right after the migrations, wherever they are applied (`npm run dev`, the tests'
// set-up, `npm run db:migrate` on deploy). Idempotent: it only touches rows still without
// terms, and a second run finds none.
// Imports carry `.ts` because this file also runs in Node (the dev and deploy tooling).
import { sql } from 'drizzle-orm';
import type { NeonDatabase } from 'drizzle-orm/neon-serverless';
import { tsvectorText } from '../ingest/search-terms.ts';

/** Rows per round trip: each carries its content out and its terms back (a few KB). */
const BATCH = 500;

/** Gives every chunk without search terms its terms; answers how many it updated. */
export async function backfillSearchTerms(
  db: NeonDatabase<Record<string, unknown>>,
): Promise<number> {
  let updated = 0;
  for (;;) {
    const { rows } = await db.execute<{ id: string | number; content: string }>(
      sql`select id, content from chunks where search_terms is null order by id limit ${BATCH}`,
    );
    if (rows.length === 0) return updated;
    const values = rows.map(
      (row) => sql`(${String(row.id)}::bigint, ${tsvectorText(row.content)}::tsvector)`,
    );
    await db.execute(sql`
      update chunks set search_terms = v.terms
      from (values ${sql.join(values, sql`, `)}) as v(id, terms)
      where chunks.id = v.id`);
    updated += rows.length;
  }
}
