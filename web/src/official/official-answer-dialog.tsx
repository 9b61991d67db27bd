import { useState } from 'preact/hooks';
import type { ChatSource } from '../api/services';
import { notInForce, ValidityBadge } from '../components/validity-badge';
import type { AppContext } from '../context';
import { isAbort } from '../context';
import { openDialog } from '../components/dialog';
import { Field } from '../components/field';
import { FormDialog } from '../components/form-dialog';
import { t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages } from '../i18n/messages';
import { sourcePlace } from '../source-place';

/** A passage the answer may cite: its chunk id and, when known, where it stands. */
export interface CitedPassage {
  chunk_id: number;
  file_name?: string;
  /** Where in the file (a page, or a section's number and headings): named by sourcePlace. */
  page?: number;
  section?: string | null | undefined;
  heading_path?: string | null | undefined;
  /** A little of its text, to tell passages apart. */
  excerpt?: string;
  /** Its document's number (文号), when the document says it. */
  doc_number?: string | null | undefined;
  /** Whether its document still holds: a passage of one that does not starts unticked. */
  validity?: ChatSource['validity'];
}

/** A passage of a repealed, replaced, amended or expired document. */
const stale = (passage: CitedPassage | undefined) => notInForce(passage?.validity) !== undefined;

export interface OfficialAnswerDraft {
  collectionId: string;
  /** Changes this official answer; a new one without it. */
  id?: string;
  question?: string;
  answer?: string;
  /** Chunk ids it cites (from an answer's sources, a search, or the answer being edited). */
  citations?: number[];
  /** What is known of those passages, to name them; unnamed ones show their number. */
  cited?: CitedPassage[];
  /** Gap-report question ids the answer settles (marked resolved when it is saved). */
  resolves?: number[];
}

/**
 * Writes (or changes) an official answer (标准口径) of a collection: its question, its answer
 * and the passages it cites, picked from a search of the collection. Resolves whether it was
 * saved. Used by the collection's "Official answers" screen, by "Make official" on an answer
 * in the chat and by the gap report.
 */
export function openOfficialAnswerDialog(
  ctx: AppContext,
  draft: OfficialAnswerDraft,
): Promise<boolean> {
  return openDialog<boolean>(
    (done) => <OfficialAnswerForm ctx={ctx} draft={draft} done={done} />,
    false,
  );
}

const passageName = (passage: CitedPassage) => {
  const m = messages().official;
  const { file_name: file, page } = passage;
  return file !== undefined && page !== undefined
    ? m.passageAt(file, sourcePlace({ ...passage, page }))
    : m.passage(passage.chunk_id);
};

function OfficialAnswerForm(props: {
  ctx: AppContext;
  draft: OfficialAnswerDraft;
  done(saved: boolean): void;
}) {
  const { ctx, draft, done } = props;
  const m = messages().official;
  // Every passage the user has seen (prefilled, then search results), to name the chosen ones.
  const [known, setKnown] = useState<Map<number, CitedPassage>>(
    () => new Map((draft.cited ?? []).map((passage) => [passage.chunk_id, passage])),
  );
  // An official answer is given as written, without the model's caveats: one resting on a
  // document no longer in force must be a choice, so such passages start unticked (and shown).
  const [chosen, setChosen] = useState<number[]>(() =>
    (draft.citations ?? []).filter((id) => !stale(known.get(id))),
  );
  const [unticked] = useState(() => (draft.citations ?? []).filter((id) => stale(known.get(id))));
  const [query, setQuery] = useState(draft.question ?? '');
  const [results, setResults] = useState<CitedPassage[] | undefined>();
  const [searchProblem, setSearchProblem] = useState<string | undefined>();

  async function search() {
    const text = query.trim();
    if (!text) return;
    setSearchProblem(undefined);
    try {
      const hits = await ctx.api.knowledge.GetQuery(
        { text, top: 10, collection_id: draft.collectionId },
        { signal: ctx.signal },
      );
      const found = hits.map((hit) => ({
        chunk_id: hit.id,
        file_name: hit.file_name,
        page: hit.page,
        section: hit.section,
        heading_path: hit.heading_path,
        excerpt: hit.content.slice(0, 160),
        validity: hit.validity,
      }));
      setKnown((before) => new Map([...before, ...found.map((p) => [p.chunk_id, p] as const)]));
      setResults(found);
    } catch (err) {
      if (isAbort(err)) return;
      setSearchProblem(failureText(ctx.fail(err), messages()));
    }
  }

  function toggle(id: number, on: boolean) {
    setChosen((before) =>
      on ? [...before.filter((c) => c !== id), id] : before.filter((c) => c !== id),
    );
  }

  async function submit(data: FormData): Promise<Localized | void> {
    try {
      await ctx.api.chat.PostOfficialAnswer(
        {
          body: {
            ...(draft.id ? { id: draft.id } : {}),
            collection_id: draft.collectionId,
            question: String(data.get('question') ?? '').trim(),
            answer: String(data.get('answer') ?? '').trim(),
            citations: chosen,
            ...(draft.resolves?.length ? { resolves: draft.resolves } : {}),
          },
        },
        { signal: ctx.signal },
      );
      done(true);
    } catch (err) {
      const failure = ctx.fail(err);
      return t((all) => all.official.notSaved(failureText(failure, all)));
    }
  }

  // The chosen passages first (in citation order), then the prefilled ones left unticked, then
  // search results not listed yet.
  const listedIds = new Set(chosen);
  const listed = [
    ...chosen.map((id) => known.get(id) ?? { chunk_id: id }),
    ...[...unticked, ...(results ?? []).map((passage) => passage.chunk_id)].flatMap((id) => {
      if (listedIds.has(id)) return [];
      listedIds.add(id);
      return [known.get(id) ?? { chunk_id: id }];
    }),
  ];

  return (
    <FormDialog
      title={m.dialogTitle}
      message={draft.resolves?.length ? m.resolves(draft.resolves.length) : undefined}
      info={Boolean(draft.resolves?.length)}
      submit={m.save}
      onCancel={() => done(false)}
      onSubmit={submit}
    >
      <Field label={m.question}>
        {({ id }) => (
          <input
            id={id}
            name="question"
            required
            maxLength={2000}
            autofocus
            defaultValue={draft.question ?? ''}
          />
        )}
      </Field>
      <Field label={m.answer}>
        {({ id }) => (
          <textarea
            id={id}
            name="answer"
            required
            rows={6}
            maxLength={20_000}
            defaultValue={draft.answer ?? ''}
          />
        )}
      </Field>
      <fieldset class="official-citations">
        <legend>{m.citations}</legend>
        <p class="hint">{m.citationsHint}</p>
        {unticked.length > 0 && <p class="hint">{m.staleUnticked}</p>}
        <div class="form-row">
          <Field label={m.search}>
            {({ id }) => (
              <input
                id={id}
                type="search"
                value={query}
                onInput={(event) => setQuery(event.currentTarget.value)}
                onKeyDown={(event) => {
                  // Enter searches here instead of sending the whole form.
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    void search();
                  }
                }}
              />
            )}
          </Field>
          <button type="button" class="button small" onClick={() => void search()}>
            {m.searchButton}
          </button>
        </div>
        {searchProblem && (
          <p class="notice error" role="alert">
            {searchProblem}
          </p>
        )}
        {results?.length === 0 && <p class="hint">{m.noResults}</p>}
        {listed.length > 0 && (
          <ul class="official-passages">
            {listed.map((passage) => (
              <li key={passage.chunk_id}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.includes(passage.chunk_id)}
                    onChange={(event) => toggle(passage.chunk_id, event.currentTarget.checked)}
                  />{' '}
                  <strong>{passageName(passage)}</strong>
                  {passage.doc_number && <span> {passage.doc_number}</span>}
                  {passage.validity && (
                    <>
                      {' '}
                      <ValidityBadge validity={passage.validity} look="compact" />
                    </>
                  )}
                  {passage.excerpt && <span class="hint"> {passage.excerpt}</span>}
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
    </FormDialog>
  );
}
