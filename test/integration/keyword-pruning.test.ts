// The keyword list (kbchat_keyword_candidates, migrations 0014 and 0017) skips scoring the
// chunks that have only the question's most common terms when the list can hold none of them.
// That shortcut must never change the list. Here collections are built where the shortcut
// applies, and each list is compared with the ranking computed here from the chunks' terms
// (the function's idf and order, written again in TypeScript), and with the same function
// asked for a list too deep for the shortcut (so every matching chunk is scored).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { quoteLexeme } from '../../workers/knowledge/src/ingest/search-terms';
import { inRolledBackTransaction, scratchFiles } from '../helpers/database';

const CHUNKS = 300;
const DEPTH = 50;

type Ranked = { id: string; rank: string };
type Lists = { shortcut: Ranked[]; everyMatch: Ranked[] };
interface Found {
  collection: Lists;
  secondFile: Lists;
  /** Chunk i's id. */
  idOf: string[];
  /** N, as the function reads it: the planner's row estimate, else a count. */
  total: number;
}

/**
 * Chunks i ≡ 0 (mod 5) are in a second file: asked about that file alone, fewer than DEPTH of
 * its chunks have a rarer term, so the split (chosen from the collection's counts) is there
 * but its chunks do not suffice and every match must be scored.
 */
const inSecondFile = (i: number) => i % 5 === 0;

/** A text[] parameter (drizzle would send a JS array as a row of values). */
const textArray = (items: string[]) =>
  sql`array[${sql.join(
    items.map((item) => sql`${item}`),
    sql`, `,
  )}]::text[]`;

/**
 * A collection of CHUNKS chunks with the terms `termsOf(i)` (and a term of its own each), in
 * two files; the question's list at DEPTH and at CHUNKS, for the collection and for the
 * second file alone. In a transaction that is rolled back: the collection, its files and
 * chunks never exist for other tests.
 */
async function lists(termsOf: (i: number) => string[], question: string[]): Promise<Found> {
  return inRolledBackTransaction(async (tx) => {
    const {
      admin,
      collection,
      files: [file, second],
    } = await scratchFiles(tx, 2, CHUNKS);
    await tx.execute(
      sql`select kbchat_session(${admin.id}::uuid, ${admin.session_epoch}::int, true)`,
    );
    const tsvectors = Array.from({ length: CHUNKS }, (_, i) =>
      [`filler${i}`, ...termsOf(i)].map(quoteLexeme).join(' '),
    );
    const fileOf = Array.from({ length: CHUNKS }, (_, i) => (inSecondFile(i) ? second! : file!));
    const inserted = await tx.execute<{ id: string; index: number }>(sql`
      insert into chunks (file_id, collection_id, page, index, content, embedding, search_terms)
      select t.file_id::uuid, ${collection}::uuid, 1, t.i, 'chunk ' || t.i,
             array_fill(0.01::real, array[1536])::vector, t.terms::tsvector
      from unnest(${textArray(tsvectors)}, ${textArray(fileOf)}) with ordinality as t(terms, file_id, i)
      returning id::text, index`);
    const idOf: string[] = [];
    for (const row of inserted.rows) idOf[Number(row.index) - 1] = row.id;
    const [counted] = (
      await tx.execute<{ total: string }>(sql`
        select coalesce(
          (select nullif(greatest(c.reltuples, 0), 0)::float8 from pg_class c where c.oid = 'chunks'::regclass),
          (select count(*)::float8 from chunks))::text as total`)
    ).rows;

    const list = async (depth: number, files: string[] | null) =>
      (
        await tx.execute<Ranked>(sql`
          select id::text, rank::text from kbchat_keyword_candidates(
            ${textArray(question.map(quoteLexeme))}::tsquery[], ${textArray(question)}, ${depth}::int,
            ${files ? sql`${textArray(files)}::uuid[]` : sql`null`}, array[${collection}::uuid], 0.5::float8, 200::int)`)
      ).rows;
    const both = async (files: string[] | null): Promise<Lists> => ({
      shortcut: await list(DEPTH, files),
      everyMatch: await list(CHUNKS, files),
    });
    return {
      collection: await both(null),
      secondFile: await both([second!]),
      idOf,
      total: Number(counted!.total),
    };
  });
}

const indexes = Array.from({ length: CHUNKS }, (_, i) => i);

/**
 * The list as migration 0012 defines it, computed from the chunks' terms: each chunk with a
 * question term scores the sum of its terms' BM25 idf over N chunks (a term in more than half
 * of them, and more than 200, is left out); best first, ties by id. Only this test's chunks
 * have these terms, so a term's df is its count here.
 */
function expectedList(
  found: Found,
  termsOf: (i: number) => string[],
  question: string[],
  inScope: (i: number) => boolean,
  depth: number,
): Ranked[] {
  const n = found.total;
  const idf = new Map<string, number>();
  for (const term of question) {
    const df = indexes.filter((i) => termsOf(i).includes(term)).length;
    if (df > 0 && df <= Math.max(n * 0.5, 200)) {
      idf.set(term, Math.log(1 + (Math.max(n, df) - df + 0.5) / (df + 0.5)));
    }
  }
  const scored = indexes
    .filter(inScope)
    .map((i) => ({
      id: found.idOf[i]!,
      score: question.reduce((sum, t) => sum + (termsOf(i).includes(t) ? (idf.get(t) ?? 0) : 0), 0),
      matches: termsOf(i).some((t) => idf.has(t)),
    }))
    .filter((c) => c.matches);
  scored.sort((a, b) => b.score - a.score || Number(BigInt(a.id) - BigInt(b.id)));
  return scored.slice(0, depth).map((c, k) => ({ id: c.id, rank: String(k + 1) }));
}

/** Each of the four lists is the ranking computed here, at its depth and in its scope. */
function expectComputedRankings(
  found: Found,
  termsOf: (i: number) => string[],
  question: string[],
): void {
  const expected = (inScope: (i: number) => boolean, depth: number) =>
    expectedList(found, termsOf, question, inScope, depth);
  expect(found.collection.shortcut).toEqual(expected(() => true, DEPTH));
  expect(found.collection.everyMatch).toEqual(expected(() => true, CHUNKS));
  expect(found.secondFile.shortcut).toEqual(expected(inSecondFile, DEPTH));
  expect(found.secondFile.everyMatch).toEqual(expected(inSecondFile, CHUNKS));
}

it('gives the same ranking as scoring every matching chunk', async () => {
  /**
   * "commonword" in 171 of the 300 chunks, "midword" in 100, "rareword" in 75, "scarceword"
   * in 8. Sorted from the most common, "commonword" alone is a run whose idf is below every
   * rarer term's, and "midword" (df 100 ≥ 50) is left essential: 0014's split applies. The
   * overlaps give many different scores, and many ties (decided by id).
   */
  const termsOf = (i: number) =>
    [
      (i % 2 === 0 || i % 7 === 0) && 'commonword',
      i % 3 === 0 && 'midword',
      i % 4 === 1 && 'rareword',
      i % 37 === 5 && 'scarceword',
    ].filter((t) => t !== false);
  const question = ['commonword', 'midword', 'rareword', 'scarceword', 'absentword'];
  const found = await lists(termsOf, question);
  expectComputedRankings(found, termsOf, question);
  // Every chunk with any of the terms is in the deep list.
  const matching = indexes.filter((i) => termsOf(i).length > 0);
  expect(found.collection.everyMatch).toHaveLength(matching.length);

  // One file: the split's chunks there are too few, so every match there is scored.
  const inSecond = matching.filter(inSecondFile);
  const rarer = inSecond.filter((i) => termsOf(i).some((t) => t !== 'commonword'));
  expect(rarer.length).toBeLessThan(DEPTH);
  expect(inSecond.length).toBeGreaterThan(DEPTH);
  expect(found.secondFile.everyMatch).toHaveLength(inSecond.length);
});

it('gives the same ranking when only a threshold splits the terms', async () => {
  /**
   * "alphaword" and "betaword" in 150 chunks each, "gammaword" in 120, "deltaword" in 60,
   * "scarceword" in 8: all 300 chunks have a term. The 60 deltaword chunks have the other
   * three too. No run of common terms has an idf sum below the next rarer term's (alphaword
   * and betaword share one idf, and scarceword has too few chunks to fill the list), so
   * 0014's rule splits nothing and would score every chunk (488 postings, more than
   * 8 × DEPTH). 0017's threshold, the 50th best score among the rarest terms' chunks
   * (deltaword's: all four terms), leaves the other three non-essential.
   */
  const termsOf = (i: number) => {
    const delta = i % 5 === 0;
    return [
      ...(delta ? ['alphaword', 'betaword', 'gammaword', 'deltaword'] : []),
      (i % 5 === 1 || (i % 5 === 4 && i % 2 === 0)) && 'alphaword',
      (i % 5 === 2 || (i % 5 === 4 && i % 2 === 1)) && 'betaword',
      i % 5 === 3 && 'gammaword',
      i % 37 === 5 && 'scarceword',
    ].filter((t) => t !== false);
  };
  const count = (term: string) => indexes.filter((i) => termsOf(i).includes(term)).length;
  expect([count('alphaword'), count('betaword'), count('gammaword'), count('deltaword')]).toEqual([
    150, 150, 120, 60,
  ]);
  const question = ['alphaword', 'betaword', 'gammaword', 'deltaword', 'scarceword'];
  const found = await lists(termsOf, question);
  expectComputedRankings(found, termsOf, question);
  expect(found.collection.everyMatch).toHaveLength(CHUNKS);
  // The second file holds the 60 deltaword chunks: the threshold applies there too.
  expect(found.secondFile.everyMatch).toHaveLength(CHUNKS / 5);
});
