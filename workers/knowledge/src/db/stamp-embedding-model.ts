// The knowledge module's database set-up step after migration 0024: chunks stored before each
// chunk recorded its embedding model are stamped with the model configured when the migration
// runs (the one that made them, unless the configuration changed in the same deploy: then a
// re-index is what puts it right). Search compares only vectors of the query's model, so an
// unstamped chunk would be found by keyword search only. Runs right after the migrations,
// wherever they are applied; idempotent (only rows still without a model).
// Imports carry `.ts` because this file also runs in Node (the dev and deploy tooling).
import { sql } from 'drizzle-orm';
import type { NeonDatabase } from 'drizzle-orm/neon-serverless';

/** Stamps every chunk without a recorded model with `model`; answers how many it stamped. */
export async function stampEmbeddingModel(
  db: NeonDatabase<Record<string, unknown>>,
  model: string,
): Promise<number> {
  const { rowCount } = await db.execute(
    sql`update chunks set embedding_model = ${model} where embedding_model is null`,
  );
  return rowCount ?? 0;
}
