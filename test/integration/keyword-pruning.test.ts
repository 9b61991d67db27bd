// The keyword list (kbchat_keyword_candidates, migration 0014) skips scoring the chunks that
// have only the question's most common terms when enough chunks have a rarer one: each of
// those outranks every chunk without one. That shortcut must never change the list. Here a
// collection is built where the shortcut applies, and its list is compared with the same
// function asked for a list too deep for the shortcut (so every matching chunk is scored).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { quoteLexeme } from '../../workers/knowledge/src/ingest/search-terms';
import { inRolledBackTransaction, scratchFiles } from '../helpers/database';

const CHUNKS = 300;
const DEPTH = 50;

/**
 * Terms of chunk i: "commonword" in 171 of the 300 chunks, "midword" in 100, "rareword" in 75,
 * "scarceword" in 8. Sorted from the most common, "commonword" alone is a run whose idf is
 * below every rarer term's, and "midword" (df 100 ≥ 50) is left essential: the shortcut
 * applies. The overlaps give many different scores, and many ties (decided by id).
 */
function termsOf(i: number): string[] {
  const terms = [`filler${i}`];
  if (i % 2 === 0 || i % 7 === 0) terms.push('commonword');
  if (i % 3 === 0) terms.push('midword');
  if (i % 4 === 1) terms.push('rareword');
  if (i % 37 === 5) terms.push('scarceword');
  return terms;
}

const QUESTION = ['commonword', 'midword', 'rareword', 'scarceword', 'absentword'];

type Ranked = { id: string; rank: string };
type Lists = { shortcut: Ranked[]; everyMatch: Ranked[] };

/**
 * Chunks i ≡ 0 (mod 5) are in a second file: fewer than DEPTH of them have a rarer term, so
 * asked about that file alone the split still applies (it is chosen from the collection's
 * counts) but the shortcut's chunks do not suffice and every match must be scored.
 */
const inSecondFile = (i: number) => i % 5 === 0;

/** A text[] parameter (drizzle would send a JS array as a row of values). */
const textArray = (items: string[]) =>
  sql`array[${sql.join(
    items.map((item) => sql`${item}`),
    sql`, `,
  )}]::text[]`;

it('gives the same ranking as scoring every matching chunk', async () => {
  // In a transaction that is rolled back: the collection, its files and chunks never exist
  // for other tests.
  const { lists, secondFile } = await inRolledBackTransaction(async (tx) => {
    const {
      admin,
      collection,
      files: [file, second],
    } = await scratchFiles(tx, 2, CHUNKS);
    await tx.execute(
      sql`select kbchat_session(${admin.id}::uuid, ${admin.session_epoch}::int, true)`,
    );
    const tsvectors = Array.from({ length: CHUNKS }, (_, i) =>
      termsOf(i).map(quoteLexeme).join(' '),
    );
    const fileOf = Array.from({ length: CHUNKS }, (_, i) => (inSecondFile(i) ? second! : file!));
    await tx.execute(sql`
      insert into chunks (file_id, collection_id, page, index, content, embedding, search_terms)
      select t.file_id::uuid, ${collection}::uuid, 1, t.i, 'chunk ' || t.i,
             array_fill(0.01::real, array[1536])::vector, t.terms::tsvector
      from unnest(${textArray(tsvectors)}, ${textArray(fileOf)}) with ordinality as t(terms, file_id, i)`);

    const list = async (depth: number, files: string[] | null) =>
      (
        await tx.execute<Ranked>(sql`
          select id::text, rank::text from kbchat_keyword_candidates(
            ${textArray(QUESTION.map(quoteLexeme))}::tsquery[], ${textArray(QUESTION)}, ${depth}::int,
            ${files ? sql`${textArray(files)}::uuid[]` : sql`null`}, array[${collection}::uuid], 0.5::float8, 200::int)`)
      ).rows;
    const both = async (files: string[] | null): Promise<Lists> => ({
      shortcut: await list(DEPTH, files),
      everyMatch: await list(CHUNKS, files),
    });
    return { lists: await both(null), secondFile: await both([second!]) };
  });
  expect(lists.shortcut).toHaveLength(DEPTH);
  expect(lists.shortcut).toEqual(lists.everyMatch.slice(0, DEPTH));
  // Every chunk with any of the terms is in the deep list.
  const matching = Array.from({ length: CHUNKS }, (_, i) => i).filter((i) => termsOf(i).length > 1);
  expect(lists.everyMatch).toHaveLength(matching.length);

  // One file: the split's chunks there are too few, so every match there is scored.
  const inSecond = matching.filter(inSecondFile);
  const rarer = inSecond.filter((i) =>
    termsOf(i).some((t) => t !== 'commonword' && !t.startsWith('filler')),
  );
  expect(rarer.length).toBeLessThan(DEPTH);
  expect(inSecond.length).toBeGreaterThan(DEPTH);
  expect(secondFile.everyMatch).toHaveLength(inSecond.length);
  expect(secondFile.shortcut).toEqual(secondFile.everyMatch.slice(0, DEPTH));
});
