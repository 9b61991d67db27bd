import type { z } from 'zod';
import type { Principal } from '#shared/auth/roles';
import type { knowledgeService } from '#shared/contracts/knowledge';
import type { FileNow, FileStateQuery } from '#shared/contracts/knowledge-upkeep';
import type { ServiceImpl } from '#shared/service';
import { knowledgeDb } from '../call';
import { collectionsReadable, currentVersionsOf, filesAsked } from '../store/file-states';
import { lineageRoot } from '../store/versions';
import { callValidity, type FileValidity } from './metadata';

type Impl = ServiceImpl<typeof knowledgeService, KnowledgeEnv, Principal>;
type Query = z.output<typeof FileStateQuery>;
type Now = z.output<typeof FileNow> & { id: string };

export interface FoundFile {
  id: string;
  lineageId: string | null;
  supersededBy: string | null;
  supersededAt: Date | null;
  version: number;
}
export interface CurrentVersion {
  id: string;
  lineageId: string | null;
  name: string;
  version: number;
}

/**
 * Each asked file as it stands, in the order asked (pure: the handler reads the rows). A file
 * not found is `deleted` only when the caller can read the collection it was cited in: under
 * row-level security a file they may no longer read is not found either, and that is all they
 * are told of it. A superseded file's validity is its current version's: the document now.
 */
export function fileStates(
  asked: readonly Query[],
  rows: {
    found: readonly FoundFile[];
    readable: ReadonlySet<string>;
    currents: readonly CurrentVersion[];
    validity: ReadonlyMap<string, FileValidity>;
  },
): Now[] {
  const found = new Map(rows.found.map((file) => [file.id, file]));
  const currentOf = new Map(rows.currents.map((file) => [lineageRoot(file), file]));
  return asked.map(({ id, collection_id }) => {
    const file = found.get(id);
    if (!file) {
      const gone = collection_id !== undefined && rows.readable.has(collection_id);
      return { id, state: gone ? 'deleted' : 'unavailable' };
    }
    if (file.supersededBy === null) {
      return withValidity({ id, state: 'current' }, rows.validity.get(id));
    }
    const current = currentOf.get(lineageRoot(file));
    return withValidity(
      {
        id,
        state: 'superseded',
        version: file.version,
        superseded_at: file.supersededAt?.toISOString() ?? null,
        current: current ? { id: current.id, name: current.name, version: current.version } : null,
      },
      rows.validity.get(current?.id ?? id),
    );
  });
}

const withValidity = (now: Now, validity: FileValidity | undefined): Now =>
  validity ? { ...now, validity } : now;

/** PostFileStates: see the contract. Two round trips: the files, then their current versions. */
export const PostFileStates: Impl['PostFileStates'] = async ({ body }, ctx) => {
  const asked = [...new Map(body.files.map((query) => [query.id, query])).values()];
  const kdb = knowledgeDb(ctx);
  const collectionIds = [...new Set(asked.flatMap((query) => query.collection_id ?? []))];
  const [found, readable] = await kdb.batch([
    filesAsked(
      kdb.db,
      asked.map((query) => query.id),
    ),
    collectionsReadable(kdb.db, collectionIds),
  ] as const);
  const superseded = found.filter((file) => file.supersededBy !== null);
  const currents =
    superseded.length > 0
      ? await kdb.run(currentVersionsOf(kdb.db, [...new Set(superseded.map(lineageRoot))]))
      : [];
  const validity = await callValidity(ctx, [
    ...found.filter((file) => file.supersededBy === null).map((file) => file.id),
    ...currents.map((file) => file.id),
  ]);
  const states = fileStates(asked, {
    found,
    readable: new Set(readable.map((row) => row.id)),
    currents,
    validity,
  });
  // In the order asked, each file once (a file asked twice answers twice).
  const byId = new Map(states.map((state) => [state.id, state]));
  return body.files.map((query) => byId.get(query.id)!);
};
