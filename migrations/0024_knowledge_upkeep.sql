CREATE TABLE "answer_settings" (
	"collection_id" uuid PRIMARY KEY NOT NULL,
	"official_threshold" real DEFAULT 0.9 NOT NULL,
	"updated_by" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "answer_settings_threshold_check" CHECK ("answer_settings"."official_threshold" between 0.5 and 1)
);
--> statement-breakpoint
ALTER TABLE "answer_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "gap_questions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"collection_ids" uuid[] NOT NULL,
	"kind" text NOT NULL,
	"question" text NOT NULL,
	"message_id" uuid,
	"asked_by" uuid DEFAULT kbchat_user() NOT NULL,
	"best_similarity" real,
	"closest" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"embedding" vector(1536) NOT NULL,
	"embedding_model" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	CONSTRAINT "gap_questions_kind_check" CHECK ("gap_questions"."kind" in ('refused', 'unhelpful', 'unsupported'))
);
--> statement-breakpoint
ALTER TABLE "gap_questions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "official_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"collection_id" uuid NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"citations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"embedding" vector(1536) NOT NULL,
	"embedding_model" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_by_name" text NOT NULL,
	"updated_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "official_answers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "chunk_reembeddings" (
	"chunk_id" bigint PRIMARY KEY NOT NULL,
	"file_id" uuid NOT NULL,
	"embedding_model" text NOT NULL,
	"embedding" vector(1536) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chunk_reembeddings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "reindex_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"collection_id" uuid,
	"embedding_model" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"file_ids" uuid[] NOT NULL,
	"files_done" integer DEFAULT 0 NOT NULL,
	"chunks" integer NOT NULL,
	"chunks_done" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"error_message" text,
	"workflow_id" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reindex_jobs_status_check" CHECK ("reindex_jobs"."status" in ('running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "reindex_jobs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "retrieval_tests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"collection_id" uuid NOT NULL,
	"question" text NOT NULL,
	"file_id" uuid NOT NULL,
	"page" integer,
	"created_by" uuid NOT NULL,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "retrieval_tests" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "closest" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "review_resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "review_resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "embedding_model" text;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "original_content" text;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "edited_by" uuid;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "edited_by_name" text;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "lineage_id" uuid;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "replaces_id" uuid;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "superseded_by" uuid;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gap_questions" ADD CONSTRAINT "gap_questions_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunk_reembeddings" ADD CONSTRAINT "chunk_reembeddings_chunk_id_chunks_id_fk" FOREIGN KEY ("chunk_id") REFERENCES "public"."chunks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunk_reembeddings" ADD CONSTRAINT "chunk_reembeddings_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reindex_jobs" ADD CONSTRAINT "reindex_jobs_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retrieval_tests" ADD CONSTRAINT "retrieval_tests_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gap_questions_collections_idx" ON "gap_questions" USING gin ("collection_ids");--> statement-breakpoint
CREATE INDEX "gap_questions_created_idx" ON "gap_questions" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "official_answers_collection_idx" ON "official_answers" USING btree ("collection_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chunk_reembeddings_file_idx" ON "chunk_reembeddings" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "reindex_jobs_collection_idx" ON "reindex_jobs" USING btree ("collection_id","created_at");--> statement-breakpoint
CREATE INDEX "retrieval_tests_collection_idx" ON "retrieval_tests" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "files_lineage_idx" ON "files" USING btree ("lineage_id");--> statement-breakpoint
CREATE INDEX "files_not_searched_idx" ON "files" USING btree ("id") WHERE "files"."status" <> 'ready' or not "files"."enabled" or "files"."superseded_by" is not null;--> statement-breakpoint
CREATE POLICY "messages_review_resolve" ON "messages" AS PERMISSIVE FOR UPDATE TO "kbchat_app" USING ("messages"."feedback" = 'unhelpful' and (select current_setting('kbchat.role', true)) = 'SUPER_ADMIN') WITH CHECK ("messages"."feedback" = 'unhelpful' and (select current_setting('kbchat.role', true)) = 'SUPER_ADMIN');--> statement-breakpoint
CREATE POLICY "chunks_edit" ON "chunks" AS PERMISSIVE FOR UPDATE TO "kbchat_app" USING ("chunks"."file_id" in (select f.id from files f where (f.collection_id = any((select kbchat_collections('editor'))::uuid[]) and (f.collection_id <> '00000000-0000-0000-0000-000000000000'::uuid or f.uploader_id = (select kbchat_user()) or '00000000-0000-0000-0000-000000000000'::uuid = any((select kbchat_collections('owner'))::uuid[]))))) WITH CHECK ("chunks"."file_id" in (select f.id from files f where (f.collection_id = any((select kbchat_collections('editor'))::uuid[]) and (f.collection_id <> '00000000-0000-0000-0000-000000000000'::uuid or f.uploader_id = (select kbchat_user()) or '00000000-0000-0000-0000-000000000000'::uuid = any((select kbchat_collections('owner'))::uuid[])))));--> statement-breakpoint
CREATE POLICY "answer_settings_read" ON "answer_settings" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("answer_settings"."collection_id" = any((select kbchat_collections('viewer'))::uuid[]));--> statement-breakpoint
CREATE POLICY "answer_settings_write" ON "answer_settings" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("answer_settings"."collection_id" = any((select kbchat_collections('owner'))::uuid[])) WITH CHECK ("answer_settings"."collection_id" = any((select kbchat_collections('owner'))::uuid[]));--> statement-breakpoint
CREATE POLICY "gap_questions_ask" ON "gap_questions" AS PERMISSIVE FOR INSERT TO "kbchat_app" WITH CHECK ("gap_questions"."asked_by" = (select kbchat_user()) and "gap_questions"."collection_ids" <@ (select kbchat_collections('viewer'))::uuid[]);--> statement-breakpoint
CREATE POLICY "gap_questions_keep" ON "gap_questions" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("gap_questions"."collection_ids" && (select kbchat_collections('editor'))::uuid[]) WITH CHECK ("gap_questions"."collection_ids" && (select kbchat_collections('editor'))::uuid[]);--> statement-breakpoint
CREATE POLICY "official_answers_read" ON "official_answers" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("official_answers"."collection_id" = any((select kbchat_collections('viewer'))::uuid[]));--> statement-breakpoint
CREATE POLICY "official_answers_write" ON "official_answers" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("official_answers"."collection_id" = any((select kbchat_collections('owner'))::uuid[])) WITH CHECK ("official_answers"."collection_id" = any((select kbchat_collections('owner'))::uuid[]));--> statement-breakpoint
CREATE POLICY "chunk_reembeddings_read" ON "chunk_reembeddings" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("chunk_reembeddings"."file_id" in (select id from files));--> statement-breakpoint
CREATE POLICY "chunk_reembeddings_ingest" ON "chunk_reembeddings" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("chunk_reembeddings"."file_id" = (select kbchat_ingest_file())) WITH CHECK ("chunk_reembeddings"."file_id" = (select kbchat_ingest_file()));--> statement-breakpoint
CREATE POLICY "reindex_jobs_owner" ON "reindex_jobs" AS PERMISSIVE FOR ALL TO "kbchat_app" USING (("reindex_jobs"."collection_id" = any((select kbchat_collections('owner'))::uuid[]) or ("reindex_jobs"."collection_id" is null and (select current_setting('kbchat.role', true)) = 'SUPER_ADMIN'))) WITH CHECK (("reindex_jobs"."collection_id" = any((select kbchat_collections('owner'))::uuid[]) or ("reindex_jobs"."collection_id" is null and (select current_setting('kbchat.role', true)) = 'SUPER_ADMIN')));--> statement-breakpoint
CREATE POLICY "reindex_jobs_workflow" ON "reindex_jobs" AS PERMISSIVE FOR ALL TO "kbchat_app" USING ("reindex_jobs"."id" = (select nullif(current_setting('kbchat.reindex_job', true), '')::uuid)) WITH CHECK ("reindex_jobs"."id" = (select nullif(current_setting('kbchat.reindex_job', true), '')::uuid));--> statement-breakpoint
CREATE POLICY "retrieval_tests_read" ON "retrieval_tests" AS PERMISSIVE FOR SELECT TO "kbchat_app" USING ("retrieval_tests"."collection_id" = any((select kbchat_collections('viewer'))::uuid[]));--> statement-breakpoint
CREATE POLICY "retrieval_tests_write" ON "retrieval_tests" AS PERMISSIVE FOR INSERT TO "kbchat_app" WITH CHECK ("retrieval_tests"."collection_id" = any((select kbchat_collections('editor'))::uuid[]) and "retrieval_tests"."created_by" = (select kbchat_user()));--> statement-breakpoint
CREATE POLICY "retrieval_tests_delete" ON "retrieval_tests" AS PERMISSIVE FOR DELETE TO "kbchat_app" USING ("retrieval_tests"."collection_id" = any((select kbchat_collections('editor'))::uuid[]));--> statement-breakpoint
-- Switched-off chunks and files, and superseded versions, are never keyword candidates.
CREATE OR REPLACE FUNCTION kbchat_keyword_candidates(
  p_queries tsquery[],
  p_terms text[],
  p_depth integer,
  p_file_ids uuid[],
  p_collection_ids uuid[],
  p_common_share float8,
  p_min_rows integer
)
RETURNS TABLE (id bigint, rank bigint)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
  WITH readable AS MATERIALIZED (
    SELECT kbchat_collections('viewer') AS ids
  ),
  not_ready AS MATERIALIZED (
    SELECT array(
      SELECT f.id FROM files f
      WHERE f.status <> 'ready' OR NOT f.enabled OR f.superseded_by IS NOT NULL
    ) AS ids
  ),
  n AS MATERIALIZED (
    SELECT coalesce(
      (SELECT nullif(greatest(c.reltuples, 0), 0)::float8 FROM pg_class c WHERE c.oid = 'chunks'::regclass),
      (SELECT count(*)::float8 FROM chunks)
    ) AS total
  ),
  asked AS MATERIALIZED (
    SELECT t.query, t.term FROM unnest(p_queries, p_terms) AS t(query, term)
  ),
  -- The statistics' most common elements that the question asks about.
  common AS MATERIALIZED (
    SELECT e.elem, max(e.freq::float8) AS freq
    FROM pg_stats s
    CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(elem, freq)
    WHERE s.schemaname = 'public' AND s.tablename = 'chunks' AND s.attname = 'search_terms'
      AND e.elem IN (SELECT a.term FROM asked a)
    GROUP BY e.elem
  ),
  -- The caller reads every collection (the spec's one shared knowledge base, or a SUPER_ADMIN):
  -- the whole table's statistics are then theirs, and say nothing they may not know.
  everything AS MATERIALIZED (
    SELECT (SELECT count(*) FROM collections) <= cardinality(r.ids) AS readable FROM readable r
  ),
  term_stats AS MATERIALIZED (
    SELECT t.query, t.term, n.total,
      CASE
        WHEN n.total > p_min_rows AND coalesce(c.freq, 0) > p_common_share THEN NULL
        -- A common term's frequency from the statistics instead of counting its many rows.
        WHEN c.freq IS NOT NULL AND (SELECT e.readable FROM everything e) THEN c.freq * n.total
        ELSE (
          SELECT count(*)::float8 FROM (
            SELECT 1 FROM chunks ch, readable r
            WHERE ch.search_terms @@ t.query AND ch.collection_id = any(r.ids)
            LIMIT greatest(n.total * p_common_share, p_min_rows)::bigint + 1
          ) counted
        )
      END AS df
    FROM asked t
    CROSS JOIN n
    LEFT JOIN common c ON c.elem = t.term
  ),
  terms AS MATERIALIZED (
    SELECT query, term, df,
      round(ln(1 + (greatest(total, df) - df + 0.5) / (df + 0.5))::numeric, 12) AS idf
    FROM term_stats
    WHERE df > 0 AND df <= greatest(total * p_common_share, p_min_rows)
  ),
  -- Terms from the most common down: position, the idf sum up to and including it, and the
  -- idf of the next (rarer) term, the smallest idf among all rarer ones.
  ordered AS MATERIALIZED (
    SELECT query, idf, df,
      row_number() OVER w AS position,
      sum(idf) OVER w AS idf_through,
      lead(idf) OVER w AS next_idf,
      lead(df) OVER w AS next_df
    FROM terms
    WINDOW w AS (ORDER BY df DESC, term ROWS UNBOUNDED PRECEDING)
  ),
  -- 0014's split: the longest run from the most common whose idf sum is below every rarer
  -- term's idf, with a term of df ≥ p_depth left essential.
  static_split AS MATERIALIZED (
    SELECT coalesce(max(position) FILTER (WHERE idf_through < next_idf AND next_df >= p_depth), 0) AS cut
    FROM ordered
  ),
  -- Up to 4 × p_depth chunks of the rarest terms, each scored by all its terms. The p_depth-th
  -- best score among any chunks is at most the list's last score: the threshold. Read only
  -- when the terms 0014's split leaves essential have more than 8 × p_depth chunks (df
  -- summed): for most questions they have a few hundred, and scoring 4 × p_depth more to find
  -- the threshold cost more than it saved.
  seed AS MATERIALIZED (
    SELECT DISTINCT ON (x.id) x.id, x.score FROM (
      SELECT m.id, m.score
      FROM (SELECT st.query, st.df, st.term FROM terms st ORDER BY st.df, st.term) t
      CROSS JOIN LATERAL (
        SELECT ch.id, (SELECT sum(a.idf) FROM terms a WHERE ch.search_terms @@ a.query) AS score
        FROM chunks ch, readable r, not_ready nr
        WHERE ch.search_terms @@ t.query
          AND ch.collection_id = any(r.ids)
          AND ch.file_id <> all(nr.ids)
          AND ch.enabled
          AND (p_file_ids IS NULL OR ch.file_id = any(p_file_ids))
          AND (p_collection_ids IS NULL OR ch.collection_id = any(p_collection_ids))
        LIMIT 4 * p_depth
      ) m
      WHERE (SELECT sum(o.df) FROM ordered o WHERE o.position > (SELECT s.cut FROM static_split s))
        > 8 * p_depth
      LIMIT 4 * p_depth
    ) x
  ),
  threshold AS MATERIALIZED (
    SELECT s.score AS theta FROM seed s ORDER BY s.score DESC OFFSET p_depth - 1 LIMIT 1
  ),
  -- The non-essential terms are positions 1..cut (0: no split, every term is essential):
  -- 0014's run, or the longest run from the most common whose idf sum is below the threshold.
  split AS MATERIALIZED (
    SELECT greatest(
      (SELECT s.cut FROM static_split s),
      coalesce(max(position) FILTER (WHERE idf_through < (SELECT th.theta FROM threshold th)), 0)
    ) AS cut
    FROM ordered
  ),
  -- Chunks with an essential term (one index scan for all of them), each scored by all its
  -- terms; only when there is a split.
  pruned AS MATERIALIZED (
    SELECT ch.id, (SELECT sum(t.idf) FROM ordered t WHERE ch.search_terms @@ t.query) AS score
    FROM chunks ch
    CROSS JOIN readable r
    CROSS JOIN not_ready nr
    WHERE (SELECT sp.cut FROM split sp) > 0
      AND ch.search_terms @@ (
        SELECT string_agg('(' || t.query::text || ')', ' | ')::tsquery FROM ordered t
        WHERE t.position > (SELECT sp.cut FROM split sp)
      )
      AND ch.collection_id = any(r.ids)
      AND ch.file_id <> all(nr.ids)
      AND ch.enabled
      AND (p_file_ids IS NULL OR ch.file_id = any(p_file_ids))
      AND (p_collection_ids IS NULL OR ch.collection_id = any(p_collection_ids))
  ),
  -- Enough chunks with an essential term. With 0014's cut each of them outranks every chunk
  -- without one; with the threshold's, at least p_depth of them (the seed's best) score at
  -- least the threshold, above every chunk without one. Either way the list is among them.
  pruned_suffices AS MATERIALIZED (
    SELECT (SELECT sp.cut FROM split sp) > 0 AND (SELECT count(*) FROM pruned) >= p_depth AS yes
  ),
  every_match AS MATERIALIZED (
    SELECT ch.id, (SELECT sum(t.idf) FROM terms t WHERE ch.search_terms @@ t.query) AS score
    FROM chunks ch
    CROSS JOIN readable r
    CROSS JOIN not_ready nr
    WHERE NOT (SELECT ps.yes FROM pruned_suffices ps)
      AND ch.search_terms @@ (SELECT string_agg('(' || t.query::text || ')', ' | ')::tsquery FROM terms t)
      AND ch.collection_id = any(r.ids)
      AND ch.file_id <> all(nr.ids)
      AND ch.enabled
      AND (p_file_ids IS NULL OR ch.file_id = any(p_file_ids))
      AND (p_collection_ids IS NULL OR ch.collection_id = any(p_collection_ids))
  )
  SELECT scored.id, row_number() OVER (ORDER BY scored.score DESC, scored.id) AS rank
  FROM (
    SELECT s.id, s.score
    FROM (
      SELECT p.id, p.score FROM pruned p WHERE (SELECT ps.yes FROM pruned_suffices ps)
      UNION ALL
      SELECT m.id, m.score FROM every_match m
    ) s
    ORDER BY s.score DESC, s.id
    LIMIT p_depth
  ) scored
$$;
