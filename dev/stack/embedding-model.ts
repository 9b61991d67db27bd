/**
 * The embedding model the workers are configured with, `name@dimensions` (how chunks record the
 * model that made their vectors), from the environment with the workers' defaults
 * (workers/knowledge/wrangler.toml): for the migration step's stamp and the benchmarks' seeds.
 */
export function configuredEmbeddingModel(env: NodeJS.ProcessEnv): string {
  const name = env.EMBEDDING_MODEL || 'text-embedding-3-small';
  const dimensions = Number(env.EMBEDDING_DIMENSIONS) || 1536;
  return `${name}@${dimensions}`;
}
