-- Custom SQL migration file, put your code below! --
-- drizzle-kit never emits this: the vector type and the HNSW/cosine operators come from pgvector.
-- On Neon the database owner may run it; on a self-managed Postgres it needs a superuser once.
CREATE EXTENSION IF NOT EXISTS vector;
