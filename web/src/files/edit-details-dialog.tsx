import { useState } from 'preact/hooks';
import type { KnowledgeFile } from '../api/services';
import { openDialog } from '../components/dialog';
import { Field } from '../components/field';
import { FormDialog } from '../components/form-dialog';
import { now, t, type Localized } from '../i18n/bind';
import { messages } from '../i18n/messages';
import { relationName } from './document-details';

type Metadata = NonNullable<KnowledgeFile['metadata']>;
type MetaField = Exclude<keyof Metadata, 'origin'>;
type RelationKind = 'amends' | 'repeals' | 'replaces' | 'implements';

/** A correction: only the fields changed (null clears one). */
export type MetadataChange = Partial<Omit<Metadata, 'origin'>>;

export interface RelationRequest {
  relation: RelationKind;
  doc_number?: string;
  title?: string;
}

/** What the dialog asks of the service; each resolves to the file as it now is. */
export interface DetailsActions {
  save(change: MetadataChange): Promise<KnowledgeFile>;
  addRelation(request: RelationRequest): Promise<KnowledgeFile>;
  removeRelation(id: number): Promise<KnowledgeFile>;
  /** Why a request failed, in words (a 403 as who may do it). */
  reason(err: unknown): Localized;
}

const TEXT_FIELDS = ['title', 'doc_number', 'doc_type'] as const;
const DATE_FIELDS = ['issued_on', 'effective_on', 'expires_on'] as const;
const KINDS: readonly RelationKind[] = ['repeals', 'replaces', 'amends', 'implements'];

/**
 * Corrects what a file's document says of itself, and adds or removes its relations to other
 * documents. Relations change at once (each its own request); the fields when saved. Resolves
 * to the file as it is after the changes, or undefined when nothing changed.
 */
export function editDetailsDialog(
  file: KnowledgeFile,
  actions: DetailsActions,
): Promise<KnowledgeFile | undefined> {
  let latest: KnowledgeFile | undefined;
  return openDialog<KnowledgeFile | undefined>(
    (done) => (
      <DetailsForm
        file={file}
        actions={actions}
        changed={(next) => (latest = next)}
        done={(saved) => done(saved ?? latest)}
      />
    ),
    undefined,
  ).then((answer) => answer ?? latest);
}

interface DetailsFormProps {
  file: KnowledgeFile;
  actions: DetailsActions;
  changed(file: KnowledgeFile): void;
  done(file?: KnowledgeFile): void;
}

function DetailsForm({ file: initial, actions, changed, done }: DetailsFormProps) {
  const m = messages().metadata;
  const [file, setFile] = useState(initial);
  const [problem, setProblem] = useState<string | undefined>();
  const [kind, setKind] = useState<RelationKind>('repeals');
  const [number, setNumber] = useState('');
  const [title, setTitle] = useState('');
  const meta = initial.metadata;
  const origin = meta?.origin ?? {};
  const hint = (field: MetaField) => (origin[field] === 'person' ? m.correctedHint : undefined);
  const relations = file.validity?.relations ?? [];
  const own = relations.filter((r) => !r.relation.endsWith('_by'));
  // What other documents say of this one ("repealed by …"): shown, changed only in them.
  const stated = relations.filter((r) => r.relation.endsWith('_by'));

  async function relate(work: () => Promise<KnowledgeFile>) {
    setProblem(undefined);
    try {
      const next = await work();
      setFile(next);
      changed(next);
    } catch (err) {
      setProblem(m.notChanged(now(actions.reason(err))));
    }
  }

  async function submit(data: FormData): Promise<Localized | void> {
    const change: MetadataChange = {};
    for (const field of [...TEXT_FIELDS, ...DATE_FIELDS]) {
      const value = String(data.get(field) ?? '').trim();
      const before = meta?.[field] ?? null;
      if ((value || null) !== before) change[field] = value || null;
    }
    const issuers = String(data.get('issuers') ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    if (issuers.join('\n') !== (meta?.issuers ?? []).join('\n')) change.issuers = issuers;
    if (Object.keys(change).length === 0) return done();
    try {
      done(await actions.save(change));
    } catch (err) {
      const reason = actions.reason(err);
      return t((all) => all.metadata.notSaved(initial.name, reason.select(all)));
    }
  }

  return (
    <FormDialog
      title={m.dialogTitle(initial.name)}
      message={m.dialogMessage}
      submit={m.save}
      onCancel={() => done()}
      onSubmit={submit}
    >
      {/* Uncontrolled (defaultValue): a relation added re-renders the form, keeping what was typed. */}
      <Field label={m.title} hint={hint('title')}>
        {({ id, hintId }) => (
          <input
            id={id}
            name="title"
            maxLength={500}
            autofocus
            aria-describedby={hintId}
            defaultValue={meta?.title ?? ''}
          />
        )}
      </Field>
      <Field label={m.docNumber} hint={hint('doc_number')}>
        {({ id, hintId }) => (
          <input
            id={id}
            name="doc_number"
            maxLength={100}
            aria-describedby={hintId}
            defaultValue={meta?.doc_number ?? ''}
          />
        )}
      </Field>
      <Field label={m.issuers} hint={hint('issuers')}>
        {({ id, hintId }) => (
          <textarea
            id={id}
            name="issuers"
            rows={2}
            aria-describedby={hintId}
            defaultValue={(meta?.issuers ?? []).join('\n')}
          />
        )}
      </Field>
      {DATE_FIELDS.map((field) => (
        <Field
          key={field}
          label={
            { issued_on: m.issuedOn, effective_on: m.effectiveOn, expires_on: m.expiresOn }[field]
          }
          hint={hint(field)}
        >
          {({ id, hintId }) => (
            <input
              id={id}
              type="date"
              name={field}
              aria-describedby={hintId}
              defaultValue={meta?.[field] ?? ''}
            />
          )}
        </Field>
      ))}
      <Field label={m.docType} hint={hint('doc_type')}>
        {({ id, hintId }) => (
          <input
            id={id}
            name="doc_type"
            maxLength={50}
            aria-describedby={hintId}
            defaultValue={meta?.doc_type ?? ''}
          />
        )}
      </Field>
      <fieldset class="relations">
        <legend>{m.relations}</legend>
        {own.length === 0 && stated.length === 0 && <p class="hint">{m.noRelations}</p>}
        {own.length > 0 && (
          <ul class="relation-list">
            {own.map((relation) => {
              const what = `${m.relation(relation.relation)} ${relationName(relation)}`;
              return (
                <li key={relation.id}>
                  <span>{what}</span>
                  {relation.origin === 'extracted' && (
                    <span class="hint"> ({m.foundInText})</span>
                  )}{' '}
                  <button
                    type="button"
                    class="button small danger-outline"
                    aria-label={m.removeRelation(what)}
                    onClick={() => void relate(() => actions.removeRelation(relation.id))}
                  >
                    {m.remove}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {stated.length > 0 && (
          <ul class="relation-list">
            {stated.map((relation) => (
              <li key={relation.id}>
                <span>{`${m.relation(relation.relation)} ${relationName(relation)}`}</span>
                <span class="hint"> ({m.statedByOther})</span>
              </li>
            ))}
          </ul>
        )}
        <div class="relation-add">
          <Field label={m.relationKind}>
            {({ id }) => (
              <select
                id={id}
                value={kind}
                onChange={(event) => setKind(event.currentTarget.value as RelationKind)}
              >
                {KINDS.map((k) => (
                  <option key={k} value={k}>
                    {m.relation(k)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={m.otherDocNumber}>
            {({ id }) => (
              <input
                id={id}
                maxLength={100}
                value={number}
                onInput={(event) => setNumber(event.currentTarget.value)}
              />
            )}
          </Field>
          <Field label={m.otherTitle}>
            {({ id }) => (
              <input
                id={id}
                maxLength={500}
                value={title}
                onInput={(event) => setTitle(event.currentTarget.value)}
              />
            )}
          </Field>
          <button
            type="button"
            class="button small"
            onClick={() => {
              const doc = number.trim();
              const name = title.trim();
              if (!doc && !name) return setProblem(m.needsName);
              void relate(async () => {
                const next = await actions.addRelation({
                  relation: kind,
                  ...(doc ? { doc_number: doc } : {}),
                  ...(name ? { title: name } : {}),
                });
                setNumber('');
                setTitle('');
                return next;
              });
            }}
          >
            {m.addRelation}
          </button>
        </div>
        {problem && (
          <p class="notice error" role="alert">
            {problem}
          </p>
        )}
      </fieldset>
    </FormDialog>
  );
}
