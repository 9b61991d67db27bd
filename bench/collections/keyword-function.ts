// A prototype, in the bench database only (not a migration): the keyword list as a SECURITY
// DEFINER function that applies the read policy's collection filter itself. Run by the owner, the
// `@@` join may use the GIN index (under row-level security it may not: `@@` is not leakproof,
// so the planner keeps it above the policy's filter and scans every chunk), the term statistics
// come from pg_stats (hidden from a role under RLS), and document frequencies are counted over
// all chunks, as the owner's statement does. The body is searchQuery's keyword CTEs
// (workers/knowledge/src/store/search.ts) with the policy's condition added.
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import type { Question, Scope } from './measure.ts';
import { asApp } from './setup.ts';
import { stats, type Stats } from '../stats.ts';

export const KEYWORD_FUNCTION = 'bench_keyword_list';

/** The function's body; $1 = p_queries, $2 = p_terms, $3 = p_depth. */
export const keywordBody = (share: number, minRows: number) => `
  with common_terms as materialized (
    select e.elem, e.freq::float8 as freq
    from pg_stats s
    cross join lateral unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs)
      as e(elem, freq)
    where s.schemaname = 'public' and s.tablename = 'chunks'
      and s.attname = 'search_terms' and e.elem is not null
  ),
  term_stats as materialized (
    select t.query, n.total, coalesce(
      (select c.freq * n.total from common_terms c where c.elem = t.term limit 1),
      (select count(*)::float8 from chunks where search_terms @@ t.query)
    ) as df
    from unnest($1::tsquery[], $2::text[]) as t(query, term)
    cross join (
      select coalesce(
        (select nullif(greatest(reltuples, 0), 0)::float8 from pg_class where oid = 'chunks'::regclass),
        (select count(*)::float8 from chunks)
      ) as total
    ) n
  ),
  terms as materialized (
    select query, ln(1 + (greatest(total, df) - df + 0.5) / (df + 0.5)) as idf
    from term_stats
    where df > 0 and df <= greatest(total * ${share}, ${minRows})
  )
  select id, row_number() over (order by score desc, id) as rank from (
    select c.id, sum(t.idf) as score
    from chunks c join terms t on c.search_terms @@ t.query
    where c.collection_id = any((select kbchat_collections('viewer'))::uuid[])
      and c.file_id <> all (array(select f.id from files f where f.status <> 'ready'))
    group by c.id
    order by score desc, c.id
    limit $3
  ) scored`;

export const keywordFunctionDdl = (share: number, minRows: number) => `
CREATE FUNCTION ${KEYWORD_FUNCTION}(p_queries tsquery[], p_terms text[], p_depth integer)
RETURNS TABLE (id bigint, rank bigint)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$${keywordBody(share, minRows)}
$$`;

/** The keyword mode's top 10 through the function, joined as the route's statement joins. */
const STATEMENT = `
select k.id, c.content, c.file_id, f.name as file_name, c.collection_id, col.name as collection_name, c.page
from ${KEYWORD_FUNCTION}($1::tsquery[], $2::text[], $3) k
join chunks c on c.id = k.id
join files f on f.id = c.file_id
join collections col on col.id = c.collection_id
order by k.rank
limit 10`;

export async function createKeywordFunction(
  pg: PGlite,
  share: number,
  minRows: number,
): Promise<void> {
  await pg.exec(keywordFunctionDdl(share, minRows));
}

export async function keywordThroughFunction(
  pg: PGlite,
  scope: Scope,
  questions: Question[],
  quoteLexeme: (term: string) => string,
  body: string,
): Promise<{ latency: Stats; ids: number[][]; plan: string }> {
  const run = (q: Question) =>
    asApp(pg, scope.user, async (tx) => {
      const t0 = performance.now();
      const { rows } = await tx.query<{ id: string | number }>(STATEMENT, [
        q.terms.map(quoteLexeme),
        q.terms,
        10,
      ]);
      return { ms: performance.now() - t0, ids: rows.map((r) => Number(r.id)) };
    });
  for (const q of questions.slice(0, 3)) await run(q);
  const samples: number[] = [];
  const ids: number[][] = [];
  for (const q of questions) {
    const r = await run(q);
    samples.push(r.ms);
    ids.push(r.ids);
  }
  // The plan inside the function (EXPLAIN shows a function scan only): its body run as its
  // owner, after the same session check.
  const q = questions[0]!;
  const plan = await pg.transaction(async (tx) => {
    await tx.query('select * from kbchat_session($1::uuid, $2::int, false)', [
      scope.user.id,
      scope.user.epoch,
    ]);
    const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${body}`,
      [q.terms.map(quoteLexeme), q.terms, 10],
    );
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
  return { latency: stats(samples), ids, plan };
}
