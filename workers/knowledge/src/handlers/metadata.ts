import { principalOf } from '#shared/auth/principal';
import type { MetadataField } from '#shared/contracts/document-metadata';
import { AppError, notFound } from '#shared/errors/app-error';
import { auditActor, knowledgeDb, type KnowledgeCall } from '../call';
import { fileRecorded } from '../store/audit';
import type { RelationKindName } from '../db/schema';
import { normaliseDocNumber } from '../ingest/document-metadata';
import { correctMetadata, METADATA_COLUMNS, type MetadataValues } from '../store/document-metadata';
import type { Queries } from '../store/files';
import {
  deleteRelation,
  insertPersonRelation,
  ownRelations,
  relationById,
  relationGone,
  relationsNaming,
  validityStatuses,
} from '../store/relations';
import type { ValidityStatusName } from '../store/validity';
import { fileFor } from './files';
import { listedFileView } from './views';

/** A relation as one file sees it: its own, or another's that names it (`…_by`). */
export interface FileRelationView {
  id: number;
  relation: RelationKindName | `${'amended' | 'repealed' | 'replaced' | 'implemented'}_by`;
  file_id: string | null;
  file_name: string | null;
  doc_number: string | null;
  title: string | null;
  origin: 'extracted' | 'person';
}

export interface FileValidity {
  status: ValidityStatusName;
  relations: FileRelationView[];
}

const PASSIVE = {
  amends: 'amended_by',
  repeals: 'repealed_by',
  replaces: 'replaced_by',
  implements: 'implemented_by',
} as const;

/**
 * Whether each file still holds (validityStatus, the one rule) and its relations both ways:
 * what it does to other documents, and what other files the caller can read do to it. Three
 * statements for any number of files, in one round trip (callValidity) or in a session's
 * transaction (validityIn).
 */
const validityStatements = (db: Queries, fileIds: string[]) =>
  [validityStatuses(db, fileIds), ownRelations(db, fileIds), relationsNaming(db, fileIds)] as const;

type Rows<I extends number> = Awaited<ReturnType<typeof validityStatements>[I]>;

export async function callValidity(ctx: KnowledgeCall, fileIds: string[]) {
  if (fileIds.length === 0) return new Map<string, FileValidity>();
  const kdb = knowledgeDb(ctx);
  const [statuses, own, naming] = await kdb.batch(validityStatements(kdb.db, fileIds));
  return validityViews(statuses, own, naming);
}

export async function validityIn(tx: Queries, fileIds: string[]) {
  if (fileIds.length === 0) return new Map<string, FileValidity>();
  const [statuses, own, naming] = validityStatements(tx, fileIds);
  return validityViews(await statuses, await own, await naming);
}

function validityViews(statuses: Rows<0>, own: Rows<1>, naming: Rows<2>) {
  const views = new Map<string, FileValidity>();
  for (const { id, status } of statuses) views.set(id, { status, relations: [] });
  for (const r of own) {
    views.get(r.fileId)?.relations.push({
      id: r.id,
      relation: r.relation,
      file_id: r.otherId,
      file_name: r.otherName,
      doc_number: r.docNumber,
      title: r.title,
      origin: r.origin,
    });
  }
  for (const r of naming) {
    views.get(r.fileId)?.relations.push({
      id: r.id,
      relation: PASSIVE[r.relation],
      file_id: r.otherId,
      file_name: r.otherName,
      doc_number: r.docNumber,
      title: r.title,
      origin: r.origin,
    });
  }
  return views;
}

/** The file as the list shows it, after a change. */
async function listed(ctx: KnowledgeCall, id: string) {
  const found = await fileFor(ctx, id);
  return listedFileView(found, undefined, (await callValidity(ctx, [id])).get(id));
}

/** A person's correction of what a document says of itself (see the contract). */
export async function putMetadata(
  { body }: { body: { id: string } & Partial<Record<MetadataField, unknown>> },
  ctx: KnowledgeCall,
) {
  await fileFor(ctx, body.id, { manage: true });
  const fields = (Object.keys(METADATA_COLUMNS) as MetadataField[]).filter(
    (field) => body[field] !== undefined,
  );
  const values: MetadataValues = {};
  for (const field of fields) {
    const value = body[field];
    (values as Record<string, unknown>)[METADATA_COLUMNS[field]] =
      field === 'doc_number' && typeof value === 'string' ? normaliseDocNumber(value) : value;
  }
  if (fields.length > 0) {
    const kdb = knowledgeDb(ctx);
    const [[updated]] = await kdb.batch([
      correctMetadata(kdb.db, body.id, values, fields),
      fileRecorded(kdb.db, body.id, {
        action: 'knowledge.metadata_edit',
        actor: auditActor(ctx),
        detail: { fields },
      }),
    ]);
    if (!updated) throw notFound('file');
    ctx.log.info('document metadata corrected', { file_id: body.id, fields: fields.join(',') });
  }
  return listed(ctx, body.id);
}

/** A relation a person states: from a file they may manage, to a file they can read or a name. */
export async function postRelation(
  {
    body,
  }: {
    body: {
      file_id: string;
      relation: RelationKindName;
      target_file_id?: string;
      doc_number?: string;
      title?: string;
    };
  },
  ctx: KnowledgeCall,
) {
  await fileFor(ctx, body.file_id, { manage: true });
  if (body.target_file_id) {
    // 404 for a file the caller cannot read, as everywhere; the policy refuses it as well.
    await fileFor(ctx, body.target_file_id);
    if (body.target_file_id === body.file_id) throw notFound('file');
  }
  const kdb = knowledgeDb(ctx);
  const target = {
    targetFileId: body.target_file_id ?? null,
    targetDocNumber: body.doc_number ? normaliseDocNumber(body.doc_number) : null,
    targetTitle: body.title?.replace(/^《(.*)》$/u, '$1') ?? null,
  };
  // A relation changes what readers of both files are told of the other's validity: recorded
  // in the same batch.
  await kdb.batch([
    insertPersonRelation(kdb.db, {
      fileId: body.file_id,
      relation: body.relation,
      ...target,
      createdBy: principalOf(ctx).id,
    }),
    fileRecorded(kdb.db, body.file_id, {
      action: 'knowledge.relation_add',
      actor: auditActor(ctx),
      detail: {
        relation: body.relation,
        target_file_id: target.targetFileId,
        doc_number: target.targetDocNumber,
        title: target.targetTitle,
      },
    }),
  ]);
  ctx.log.info('file relation added', { file_id: body.file_id, relation: body.relation });
  return listed(ctx, body.file_id);
}

const noRelation = () => new AppError('not_found', { detail: 'No such relation.' });

/** A relation gone: for whoever may manage the file it belongs to. */
export async function deleteFileRelation({ id }: { id: number }, ctx: KnowledgeCall) {
  const kdb = knowledgeDb(ctx);
  const [relation] = await kdb.run(relationById(kdb.db, id));
  if (!relation) throw noRelation();
  await fileFor(ctx, relation.fileId, { manage: true });
  const [[deleted]] = await kdb.batch([
    deleteRelation(kdb.db, id),
    fileRecorded(
      kdb.db,
      relation.fileId,
      {
        action: 'knowledge.relation_remove',
        actor: auditActor(ctx),
        detail: {
          relation_id: id,
          relation: relation.relation,
          origin: relation.origin,
          target_file_id: relation.targetFileId,
          doc_number: relation.targetDocNumber,
          title: relation.targetTitle,
        },
      },
      relationGone(id),
    ),
  ]);
  if (!deleted) throw noRelation();
  ctx.log.info('file relation removed', { file_id: relation.fileId, relation: relation.relation });
}
