import { useEffect, useRef, useState } from 'preact/hooks';
import type { Collection, CollectionMember } from '../api/services';
import { collectionName, mayManageMembers } from '../collection-access';
import type { CollectionStore } from '../collection-store';
import { confirmDialog } from '../components/confirm-dialog';
import { OutcomeLines, Page, useOutcome } from '../components/page';
import { useApp } from '../context';
import { now, t, type Localized } from '../i18n/bind';
import { failureText } from '../i18n/failure';
import { messages, type Messages } from '../i18n/messages';
import { AddMemberForm, SettingsForm, type Role } from './collection-forms';
import { MembersTable } from './members-table';
import { SearchIndex } from '../reindex/search-index';
import { SECTION_VIEWS } from './sections';
import { collectionLink, type CollectionSection } from '../main/route';

type Shown =
  | { kind: 'loading' }
  /** Gone, or never theirs: the service answers 404 alike, and so does the page. */
  | { kind: 'unavailable' }
  /** Left or deleted here: only the way back stays. */
  | { kind: 'left' }
  | { kind: 'shown'; collection: Collection; members: CollectionMember[] };

/**
 * One collection's members and settings (`#/collection/<id>`). Every member sees who else is
 * in it and may leave; owners add members, change roles, remove members, rename the
 * collection and delete it. Controls a role would be refused are left out; the service
 * decides all the same, and its refusals are shown by their code.
 */
export function CollectionPage({
  id,
  section = 'members',
  collections,
}: {
  id: string;
  section?: CollectionSection;
  collections: CollectionStore;
}) {
  const ctx = useApp();
  const { api, signal } = ctx;
  const outcome = useOutcome();
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });
  const back = useRef<HTMLAnchorElement>(null);
  const m = messages();

  /** Shows why a call failed; `what` words it ("… could not be added: …"). */
  function complain(err: unknown, what: (reason: string, m: Messages) => string): void {
    const failure = ctx.fail(err);
    if (failure.status !== 401) outcome.failed(t((m) => what(failureText(failure, m), m)));
  }

  async function load(): Promise<void> {
    try {
      const [collection, members] = await Promise.all([
        api.knowledge.GetCollection({ id }, { signal }),
        api.knowledge.GetCollectionMembers({ id }, { signal }),
      ]);
      setShown({ kind: 'shown', collection, members });
    } catch (err) {
      if (signal.aborted) return;
      const { status } = ctx.fail(err);
      if (status === 404 || status === 403) {
        outcome.clear();
        setShown({ kind: 'unavailable' });
      } else complain(err, (reason, m) => m.collections.loadFailed(reason));
    }
  }
  useEffect(() => void load(), [id]);

  /** Runs a change, says what it did and shows the collection as it is now. */
  async function change(done: Localized, call: () => Promise<unknown>): Promise<boolean> {
    try {
      await call();
      outcome.done(done);
      await load();
      return true;
    } catch (err) {
      complain(err, (reason, m) => m.collections.notChanged(reason));
      return false;
    }
  }

  /** Leaving or deleting: the collection is no longer the user's; the workspace falls back. */
  async function leaveFor(done: Localized, call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
      await collections.refresh();
      outcome.done(done);
      setShown({ kind: 'left' });
    } catch (err) {
      complain(err, (reason, m) => m.collections.notChanged(reason));
    }
  }
  useEffect(() => {
    if (shown.kind === 'left') back.current?.focus();
  }, [shown.kind]);

  const backLink = (
    <p>
      <a href="#/" ref={back}>
        {m.collections.backToChat}
      </a>
    </p>
  );

  /** The collection's screens as tabs (links: each has its own address), when it has more. */
  function tabs(collection: Collection) {
    const shown = Object.entries(SECTION_VIEWS).filter(([, view]) => view.shown(collection));
    if (shown.length === 0) return null;
    const tab = (key: CollectionSection, label: string) => (
      <a
        href={collectionLink(id, key)}
        class="collection-tab"
        aria-current={key === section ? 'page' : undefined}
      >
        {label}
      </a>
    );
    return (
      <nav class="collection-tabs" aria-label={m.collections.sections}>
        {tab('members', m.collections.membersTab)}
        {shown.map(([key, view]) => tab(key as CollectionSection, view.label(m)))}
      </nav>
    );
  }

  function body(collection: Collection, members: CollectionMember[]) {
    const other = section === 'members' ? undefined : SECTION_VIEWS[section];
    if (other) {
      const View = other.view;
      return (
        <>
          {tabs(collection)}
          {backLink}
          <View collection={collection} />
        </>
      );
    }
    const owner = mayManageMembers(collection);
    const self = members.find((member) => member.user_id === ctx.me.id);
    const name = collection.name;
    return (
      <>
        {tabs(collection)}
        <p class="collection-about">
          {m.collections.yourRole(m.collections.role(collection.role))}
          {' · '}
          {m.collections.fileCount(collection.files)}
          {collection.description && (
            <>
              <br />
              {collection.description}
            </>
          )}
        </p>
        {backLink}
        <SearchIndex collection={collection} />
        {collection.shared ? (
          <p class="notice info">{m.collections.sharedHasNoMembers}</p>
        ) : (
          <>
            {owner && (
              <SettingsForm
                collection={collection}
                save={(name, description) =>
                  void change(
                    t((m) => m.collections.saved),
                    async () => {
                      await api.knowledge.PutCollection(
                        { body: { id, name, description } },
                        { signal },
                      );
                      void collections.refresh();
                    },
                  )
                }
              />
            )}
            <MembersTable
              collection={collection}
              members={members}
              owner={owner}
              changeRole={(member, role) =>
                change(
                  t((m) => m.collections.nowRole(member.username, m.collections.role(role))),
                  () =>
                    api.knowledge.PutCollectionMember(
                      { body: { collection_id: id, user_id: member.user_id, role } },
                      { signal },
                    ),
                )
              }
              remove={async (member) => {
                const gone = member.username;
                const sure = await confirmDialog((m) => ({
                  title: m.collections.removeTitle(gone),
                  message: m.collections.removeMessage,
                  confirm: m.collections.remove,
                  danger: true,
                }));
                if (!sure) return;
                await change(
                  t((m) => m.collections.removed(gone)),
                  () =>
                    api.knowledge.DeleteCollectionMember(
                      { collection_id: id, user_id: member.user_id },
                      { signal },
                    ),
                );
              }}
            />
            {owner && <AddMemberForm add={(username, role) => void addMember(username, role)} />}
            <div class="collection-danger">
              {self && (
                <button
                  type="button"
                  class="button danger-outline"
                  onClick={async () => {
                    const sure = await confirmDialog((m) => ({
                      title: m.collections.leaveTitle(name),
                      message: m.collections.leaveMessage,
                      confirm: m.collections.leaveConfirm,
                      danger: true,
                    }));
                    if (!sure) return;
                    await leaveFor(
                      t((m) => m.collections.left(name)),
                      () =>
                        api.knowledge.DeleteCollectionMember(
                          { collection_id: id, user_id: self.user_id },
                          { signal },
                        ),
                    );
                  }}
                >
                  {m.collections.leave}
                </button>
              )}
              {owner && (
                <button
                  type="button"
                  class="button danger"
                  onClick={async () => {
                    const sure = await confirmDialog((m) => ({
                      title: m.collections.deleteTitle(name),
                      message: m.collections.deleteMessage(collection.files),
                      confirm: m.collections.deleteCollection,
                      danger: true,
                    }));
                    if (!sure) return;
                    await leaveFor(
                      t((m) => m.collections.deleted(name)),
                      () => api.knowledge.DeleteCollection({ id }, { signal }),
                    );
                  }}
                >
                  {m.collections.deleteCollection}
                </button>
              )}
            </div>
          </>
        )}
      </>
    );
  }

  async function addMember(username: string, role: Role): Promise<void> {
    try {
      const added = await api.knowledge.PostCollectionMember(
        { body: { collection_id: id, username, role } },
        { signal },
      );
      const name = added.username;
      outcome.done(t((m) => m.collections.memberAdded(name, m.collections.role(role))));
      await load();
    } catch (err) {
      // An unknown user and a gone collection are both 404: the collection is there (it was
      // just shown), so it is the user.
      const unknownUser = ctx.fail(err).status === 404;
      complain(err, (reason, m) =>
        m.collections.notAdded(username, unknownUser ? m.collections.noSuchUser(username) : reason),
      );
    }
  }

  return (
    <Page
      class="collection-page"
      heading={shown.kind === 'shown' ? now(collectionName(shown.collection)) : m.collections.title}
    >
      <OutcomeLines outcome={outcome} />
      <div class="collection-body">
        {shown.kind === 'loading' && <p class="loading">{m.collections.loading}</p>}
        {shown.kind === 'unavailable' && (
          <div class="denied">
            <p>{m.collections.notAvailable}</p>
            {backLink}
          </div>
        )}
        {shown.kind === 'left' && backLink}
        {shown.kind === 'shown' && body(shown.collection, shown.members)}
      </div>
    </Page>
  );
}
