import type { Collection, CollectionMember } from './api/services';
import { collectionName, mayManageMembers } from './collection-access';
import type { CollectionStore } from './collection-store';
import type { AppContext } from './context';
import { confirmDialog } from './components/confirm-dialog';
import { h, replace, uid } from './dom';
import { t, type Localized } from './i18n/bind';
import { failureText } from './i18n/failure';
import { formatDate } from './i18n/format';
import type { Messages } from './i18n/messages';

const ROLES = ['viewer', 'editor', 'owner'] as const;
/** A role as a request gives it (answers may name one this app does not know). */
type Role = (typeof ROLES)[number];

/**
 * One collection's members and settings (`#/collection/<id>`). Every member sees who else is
 * in it and may leave; owners add members, change roles, remove members, rename the
 * collection and delete it. Controls a role would be refused are left out; the service
 * decides all the same, and its refusals are shown by their code.
 */
export function createCollectionPage(
  ctx: AppContext,
  collections: CollectionStore,
  id: string,
): HTMLElement {
  const titleId = uid('collection-title');
  const heading = h(
    'h1',
    { id: titleId, tabindex: -1 },
    t((m) => m.collections.title),
  );
  const flash = h('p', { class: 'flash', role: 'status' });
  const problem = h('p', { class: 'notice error', role: 'alert', hidden: true });
  const body = h(
    'div',
    { class: 'collection-body' },
    h(
      'p',
      { class: 'loading' },
      t((m) => m.collections.loading),
    ),
  );
  const root = h(
    'section',
    { class: 'page collection-page', 'aria-labelledby': titleId },
    heading,
    flash,
    problem,
    body,
  );
  const backLink = h(
    'p',
    null,
    h(
      'a',
      { href: '#/' },
      t((m) => m.collections.backToChat),
    ),
  );

  function say(text: Localized): void {
    problem.hidden = true;
    replace(flash, text);
  }

  /** Shows why a call failed; `what` words it for the screen ("… could not be added: …"). */
  function complain(err: unknown, what: (reason: string, m: Messages) => string): void {
    const failure = ctx.fail(err);
    if (failure.status === 401) return;
    replace(flash);
    problem.hidden = false;
    replace(
      problem,
      t((m) => what(failureText(failure, m), m)),
    );
  }

  /** Gone, or never theirs: the service answers 404 alike, and so does the page. */
  function unavailable(): void {
    replace(flash);
    problem.hidden = true;
    replace(
      body,
      h(
        'div',
        { class: 'denied' },
        h(
          'p',
          null,
          t((m) => m.collections.notAvailable),
        ),
        backLink,
      ),
    );
  }

  async function load(): Promise<void> {
    try {
      const [collection, members] = await Promise.all([
        ctx.api.knowledge.GetCollection({ id }, { signal: ctx.signal }),
        ctx.api.knowledge.GetCollectionMembers({ id }, { signal: ctx.signal }),
      ]);
      render(collection, members);
    } catch (err) {
      if (ctx.signal.aborted) return;
      const failure = ctx.fail(err);
      if (failure.status === 404 || failure.status === 403) unavailable();
      else complain(err, (reason, m) => m.collections.loadFailed(reason));
    }
  }

  /** Runs a change, says what it did and shows the collection as it is now. */
  async function change(done: Localized, call: () => Promise<unknown>): Promise<boolean> {
    try {
      await call();
      say(done);
      await load();
      return true;
    } catch (err) {
      complain(err, (reason, m) => m.collections.notChanged(reason));
      return false;
    }
  }

  function render(collection: Collection, members: CollectionMember[]): void {
    replace(heading, collectionName(collection));
    const owner = mayManageMembers(collection);
    const role = collection.role;
    const self = members.find((member) => member.user_id === ctx.me.id);
    replace(
      body,
      h(
        'p',
        { class: 'collection-about' },
        t((m) => m.collections.yourRole(m.collections.role(role))),
        ' · ',
        t((m) => m.collections.fileCount(collection.files)),
        collection.description && [h('br'), collection.description],
      ),
      backLink,
      collection.shared
        ? h(
            'p',
            { class: 'notice info' },
            t((m) => m.collections.sharedHasNoMembers),
          )
        : [
            owner && settingsForm(collection),
            membersTable(collection, members, owner),
            owner && addMemberForm(collection),
            h(
              'div',
              { class: 'collection-danger' },
              self && leaveButton(collection, self),
              owner && deleteButton(collection),
            ),
          ],
    );
  }

  function settingsForm(collection: Collection): HTMLFormElement {
    const nameId = uid('collection-name');
    const descriptionId = uid('collection-description');
    const name = h('input', {
      id: nameId,
      name: 'name',
      autocomplete: 'off',
      required: true,
      maxlength: 100,
      props: { value: collection.name },
    });
    const description = h('input', {
      id: descriptionId,
      name: 'description',
      autocomplete: 'off',
      maxlength: 1000,
      props: { value: collection.description },
    });
    const form = h(
      'form',
      {
        class: 'card collection-settings',
        on: {
          submit: (event) => {
            event.preventDefault();
            if (!name.value.trim()) return;
            void change(
              t((m) => m.collections.saved),
              async () => {
                await ctx.api.knowledge.PutCollection(
                  {
                    body: {
                      id: collection.id,
                      name: name.value.trim(),
                      description: description.value.trim(),
                    },
                  },
                  { signal: ctx.signal },
                );
                void collections.refresh();
              },
            );
          },
        },
      },
      h(
        'h2',
        null,
        t((m) => m.collections.settings),
      ),
      h(
        'div',
        { class: 'form-row' },
        field(
          nameId,
          t((m) => m.collections.name),
          name,
        ),
        field(
          descriptionId,
          t((m) => m.collections.description),
          description,
        ),
        h(
          'button',
          { type: 'submit', class: 'button primary' },
          t((m) => m.collections.save),
        ),
      ),
    );
    return form;
  }

  function membersTable(
    collection: Collection,
    members: CollectionMember[],
    owner: boolean,
  ): HTMLElement {
    const count = members.length;
    return h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'users members' },
        h(
          'caption',
          null,
          t((m) => m.collections.memberCount(count)),
        ),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h(
              'th',
              { scope: 'col' },
              t((m) => m.collections.user),
            ),
            h(
              'th',
              { scope: 'col' },
              t((m) => m.collections.roleLabel),
            ),
            h(
              'th',
              { scope: 'col' },
              t((m) => m.collections.added),
            ),
            h(
              'th',
              { scope: 'col' },
              h(
                'span',
                { class: 'visually-hidden' },
                t((m) => m.collections.actions),
              ),
            ),
          ),
        ),
        h(
          'tbody',
          null,
          members.map((member) => memberRow(collection, member, owner)),
        ),
      ),
    );
  }

  function memberRow(
    collection: Collection,
    member: CollectionMember,
    owner: boolean,
  ): HTMLTableRowElement {
    const name = member.username;
    const self = member.user_id === ctx.me.id;
    return h(
      'tr',
      { 'data-username': name },
      h(
        'th',
        { scope: 'row', 'data-label': t((m) => m.collections.user) },
        name,
        self &&
          h(
            'span',
            { class: 'you' },
            t((m) => m.collections.you),
          ),
      ),
      h(
        'td',
        { 'data-label': t((m) => m.collections.roleLabel) },
        owner
          ? roleSelect(collection, member)
          : h(
              'span',
              { class: member.role === 'owner' ? 'badge admin' : 'badge' },
              t((m) => m.collections.role(member.role)),
            ),
      ),
      h(
        'td',
        { 'data-label': t((m) => m.collections.added) },
        h(
          'time',
          { datetime: member.added_at },
          t(() => formatDate(member.added_at)),
        ),
      ),
      h(
        'td',
        { class: 'actions' },
        owner &&
          !self &&
          h(
            'div',
            { class: 'row-actions' },
            h(
              'button',
              {
                type: 'button',
                class: 'button small danger-outline',
                'aria-label': t((m) => m.collections.removeNamed(name)),
                on: { click: () => void removeMember(collection, member) },
              },
              t((m) => m.collections.remove),
            ),
          ),
      ),
    );
  }

  function roleSelect(collection: Collection, member: CollectionMember): HTMLSelectElement {
    const name = member.username;
    const select = h(
      'select',
      {
        'aria-label': t((m) => m.collections.roleOf(name)),
        on: {
          change: () => {
            const role = select.value as Role;
            void (async () => {
              select.disabled = true;
              const changed = await change(
                t((m) => m.collections.nowRole(name, m.collections.role(role))),
                () =>
                  ctx.api.knowledge.PutCollectionMember(
                    { body: { collection_id: collection.id, user_id: member.user_id, role } },
                    { signal: ctx.signal },
                  ),
              );
              // Refused (the last owner): the choice goes back to what holds.
              if (!changed) select.value = member.role;
              select.disabled = false;
            })();
          },
        },
      },
      ROLES.map((role) =>
        h(
          'option',
          { value: role, selected: role === member.role },
          t((m) => m.collections.role(role)),
        ),
      ),
    );
    return select;
  }

  function addMemberForm(collection: Collection): HTMLFormElement {
    const nameId = uid('member-username');
    const roleId = uid('member-role');
    const username = h('input', {
      id: nameId,
      name: 'username',
      autocomplete: 'off',
      required: true,
      maxlength: 100,
    });
    const role = h(
      'select',
      { id: roleId, name: 'role' },
      ROLES.map((value) =>
        h(
          'option',
          { value },
          t((m) => m.collections.role(value)),
        ),
      ),
    );
    const form = h(
      'form',
      {
        class: 'card add-member',
        on: {
          submit: (event) => {
            event.preventDefault();
            void addMember(collection, username.value.trim(), role.value as Role);
          },
        },
      },
      h(
        'h2',
        null,
        t((m) => m.collections.addMember),
      ),
      h(
        'div',
        { class: 'form-row' },
        field(
          nameId,
          t((m) => m.collections.username),
          username,
        ),
        field(
          roleId,
          t((m) => m.collections.roleLabel),
          role,
          'role',
        ),
        h(
          'button',
          { type: 'submit', class: 'button primary' },
          t((m) => m.collections.add),
        ),
      ),
    );
    return form;
  }

  async function addMember(collection: Collection, username: string, role: Role): Promise<void> {
    if (!username) return;
    try {
      const added = await ctx.api.knowledge.PostCollectionMember(
        { body: { collection_id: collection.id, username, role } },
        { signal: ctx.signal },
      );
      const name = added.username;
      say(t((m) => m.collections.memberAdded(name, m.collections.role(role))));
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

  async function removeMember(collection: Collection, member: CollectionMember): Promise<void> {
    const name = member.username;
    const sure = await confirmDialog((m) => ({
      title: m.collections.removeTitle(name),
      message: m.collections.removeMessage,
      confirm: m.collections.remove,
      danger: true,
    }));
    if (!sure) return;
    await change(
      t((m) => m.collections.removed(name)),
      () =>
        ctx.api.knowledge.DeleteCollectionMember(
          { collection_id: collection.id, user_id: member.user_id },
          { signal: ctx.signal },
        ),
    );
  }

  function leaveButton(collection: Collection, self: CollectionMember): HTMLButtonElement {
    const name = collection.name;
    return h(
      'button',
      {
        type: 'button',
        class: 'button danger-outline',
        on: {
          click: async () => {
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
                ctx.api.knowledge.DeleteCollectionMember(
                  { collection_id: collection.id, user_id: self.user_id },
                  { signal: ctx.signal },
                ),
            );
          },
        },
      },
      t((m) => m.collections.leave),
    );
  }

  function deleteButton(collection: Collection): HTMLButtonElement {
    const name = collection.name;
    const files = collection.files;
    return h(
      'button',
      {
        type: 'button',
        class: 'button danger',
        on: {
          click: async () => {
            const sure = await confirmDialog((m) => ({
              title: m.collections.deleteTitle(name),
              message: m.collections.deleteMessage(files),
              confirm: m.collections.deleteCollection,
              danger: true,
            }));
            if (!sure) return;
            await leaveFor(
              t((m) => m.collections.deleted(name)),
              () =>
                ctx.api.knowledge.DeleteCollection({ id: collection.id }, { signal: ctx.signal }),
            );
          },
        },
      },
      t((m) => m.collections.deleteCollection),
    );
  }

  /**
   * Leaving or deleting: the collection is no longer the user's. The page says so and keeps
   * only the way back; the workspace falls back to the shared collection.
   */
  async function leaveFor(done: Localized, call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
      await collections.refresh();
      replace(
        heading,
        t((m) => m.collections.title),
      );
      say(done);
      replace(body, backLink);
      backLink.querySelector('a')?.focus();
    } catch (err) {
      complain(err, (reason, m) => m.collections.notChanged(reason));
    }
  }

  void load();
  return root;
}

/** A labelled control; `kind` is a class for the form's layout (`role`: as wide as needed). */
function field(id: string, label: Localized, control: HTMLElement, kind?: string): HTMLElement {
  return h(
    'div',
    { class: kind ? `field ${kind}` : 'field' },
    h('label', { for: id }, label),
    control,
  );
}
