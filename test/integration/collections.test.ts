import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { queryTerms } from '../../workers/knowledge/src/ingest/search-terms';
import { searchQuery, smallScopeQuery } from '../../workers/knowledge/src/store/search';
import { call, createUser, tokenFor, type TestUser } from '../helpers/auth';
import { asAppRole, databaseError, queryRows } from '../helpers/database';

/** The embedding model the test stack is configured with (knowledge's wrangler.toml). */
const MODEL = 'text-embedding-3-small@1536';

// Collections: user A's own knowledge base, and user B, who is not a member, through every
// route and RPC; then B as viewer, editor and removed; then the database itself, asked
// directly as the workers' role.

const SHARED = '00000000-0000-0000-0000-000000000000';

interface Collection {
  id: string;
  name: string;
  role: string;
  shared: boolean;
  files: number;
}

let alice: TestUser;
let bob: TestUser;
let aliceToken = '';
let bobToken = '';
let secret: Collection;
let secretFile: { id: string };
const SECRET_WORD = `Quillback${crypto.randomUUID().slice(0, 6)}`;
const secretPdf = () =>
  makeTextPdf([
    `The ${SECRET_WORD} merger closes in March; the board approved a price of 41 euros per share.`,
  ]);

/** The database's own message of a failed statement (drizzle wraps it as the cause). */
async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json<{ data: T }>()).data;
}

async function upload(token: string, bytes: Uint8Array, name: string, collection?: string) {
  const form = new FormData();
  // A form field, as every scalar parameter of a multipart method (spec 4.2).
  if (collection) form.append('collection_id', collection);
  form.append('file', new File([bytes], name, { type: 'application/pdf' }));
  return call('/moduleknowledge/upload', { method: 'POST', body: form, token });
}

const query = (token: string, params: Record<string, string>) =>
  call(`/moduleknowledge/query?${new URLSearchParams({ top: '50', ...params })}`, { token });

const addMember = (token: string, collection: string, username: string, role: string) =>
  call('/moduleknowledge/collection_member', {
    token,
    json: { collection_id: collection, username, role },
  });

const removeMember = (token: string, collection: string, userId: string) =>
  call(`/moduleknowledge/collection_member?collection_id=${collection}&user_id=${userId}`, {
    method: 'DELETE',
    token,
  });

beforeAll(async () => {
  alice = await createUser();
  bob = await createUser();
  aliceToken = await tokenFor(alice.username, alice.password);
  bobToken = await tokenFor(bob.username, bob.password);
  secret = await json<Collection>(
    await call('/moduleknowledge/collection', {
      token: aliceToken,
      json: { name: 'Mergers 并购', description: 'Board papers' },
    }),
  );
  secretFile = await json(await upload(aliceToken, secretPdf(), 'merger.pdf', secret.id));
}, 60_000);

describe('a collection', () => {
  it('belongs to its creator as owner, listed after the shared one', async () => {
    expect(secret).toMatchObject({ name: 'Mergers 并购', role: 'owner', shared: false, files: 0 });
    const mine = await json<Collection[]>(
      await call('/moduleknowledge/collections', { token: aliceToken }),
    );
    expect(mine[0]).toMatchObject({ id: SHARED, shared: true, role: 'editor' });
    expect(mine.find((c) => c.id === secret.id)).toMatchObject({ role: 'owner', files: 1 });
    const members = await json<{ user_id: string; role: string }[]>(
      await call(`/moduleknowledge/collection_members?id=${secret.id}`, { token: aliceToken }),
    );
    expect(members).toEqual([expect.objectContaining({ user_id: alice.id, role: 'owner' })]);
  });

  it('names itself in the files, search results and chat sources of its files', async () => {
    const files = await json<{ id: string; collection: { id: string; name: string } }[]>(
      await call(`/moduleknowledge/list?collection_id=${secret.id}`, { token: aliceToken }),
    );
    expect(files).toEqual([
      expect.objectContaining({
        id: secretFile.id,
        collection: { id: secret.id, name: 'Mergers 并购' },
      }),
    ]);
    const found = await json<{ file_id: string; collection_id: string; collection_name: string }[]>(
      await query(aliceToken, { text: `${SECRET_WORD} merger price` }),
    );
    expect(found[0]).toMatchObject({
      file_id: secretFile.id,
      collection_id: secret.id,
      collection_name: 'Mergers 并购',
    });
  });
});

describe('a user who is not a member', () => {
  it('cannot see the collection, its members or its files: 404 everywhere', async () => {
    const paths = [
      `/moduleknowledge/collection?id=${secret.id}`,
      `/moduleknowledge/collection_members?id=${secret.id}`,
      `/moduleknowledge/list?collection_id=${secret.id}`,
      `/moduleknowledge/query?text=merger&collection_id=${secret.id}`,
      `/moduleknowledge/download?id=${secretFile.id}`,
      `/moduleknowledge/file_status?id=${secretFile.id}`,
      `/moduleknowledge/file_progress?id=${secretFile.id}`,
    ];
    for (const path of paths) {
      const res = await call(path, { token: bobToken });
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toMatch(/Mergers|merger\.pdf|Quillback/);
    }
    const writes: [string, Parameters<typeof call>[1]][] = [
      [`/moduleknowledge/file?id=${secretFile.id}`, { method: 'DELETE' }],
      ['/moduleknowledge/file_retry', { json: { id: secretFile.id } }],
      ['/moduleknowledge/file_move', { json: { id: secretFile.id, collection_id: SHARED } }],
      ['/moduleknowledge/collection', { method: 'PUT', json: { id: secret.id, name: 'mine' } }],
      [`/moduleknowledge/collection?id=${secret.id}`, { method: 'DELETE' }],
      [
        '/moduleknowledge/collection_member',
        { json: { collection_id: secret.id, username: bob.username, role: 'owner' } },
      ],
    ];
    for (const [path, options] of writes) {
      const res = await call(path, { ...options, token: bobToken });
      expect(res.status, path).toBe(404);
    }
    expect(
      (await upload(bobToken, makeTextPdf(['Bob was here.']), 'b.pdf', secret.id)).status,
    ).toBe(404);
    // Nothing changed.
    const [row] = await queryRows<{ name: string; files: number }>(
      sql`select c.name, (select count(*)::int from files f where f.collection_id = c.id) as files
          from collections c where c.id = ${secret.id}::uuid`,
    );
    expect(row).toEqual({ name: 'Mergers 并购', files: 1 });
  });

  it('finds nothing of it unscoped: not in the list, the search, nor over RPC', async () => {
    const listed = await json<{ id: string }[]>(
      await call('/moduleknowledge/list', { token: bobToken }),
    );
    expect(listed.map((f) => f.id)).not.toContain(secretFile.id);
    for (const mode of ['hybrid', 'vector', 'keyword']) {
      const found = await json<{ file_id: string }[]>(
        await query(bobToken, { text: `${SECRET_WORD} merger price`, mode }),
      );
      expect(
        found.map((r) => r.file_id),
        mode,
      ).not.toContain(secretFile.id);
    }
    const rpc = await env.KNOWLEDGE_RPC.GetQuery(
      { text: `${SECRET_WORD} merger`, top: 50 },
      { identity: { token: bobToken } },
    );
    expect(rpc.ok).toBe(true);
    const results = (rpc as { ok: true; data: { file_id: string }[] }).data;
    expect(results.map((r) => r.file_id)).not.toContain(secretFile.id);
    const scoped = await env.KNOWLEDGE_RPC.GetQuery(
      { text: 'merger', top: 5, collection_id: secret.id },
      { identity: { token: bobToken } },
    );
    expect(scoped).toMatchObject({ ok: false, error: { status: 404 } });
    const context = await env.KNOWLEDGE_RPC.GetContext(
      { text: 'merger', file_id: secretFile.id },
      { identity: { token: bobToken } },
    );
    expect(context).toMatchObject({ ok: true, data: { files: [], pages: [] } });
  });

  it('is refused by chat over it, and chat unscoped cites none of it', async () => {
    const scoped = await call('/modulechat/chat', {
      token: bobToken,
      json: { prompt: `${SECRET_WORD} merger price?`, collection_id: [secret.id] },
    });
    // The stream's first event titles Bob's new conversation with his own question (which has
    // the secret word in it); what follows must say nothing of the collection.
    const body = (await scoped.text()).replace(/^event: conversation\ndata: .*$/m, '');
    expect(body).toContain('"code":"collections_unavailable"');
    expect(body).not.toMatch(/Quillback|merger\.pdf|41 euros/);
    const unscoped = await (
      await call('/modulechat/chat', {
        token: bobToken,
        json: { prompt: `${SECRET_WORD} merger price?` },
      })
    ).text();
    expect(unscoped).not.toContain(secretFile.id);
    expect(unscoped).not.toMatch(/merger\.pdf|41 euros/);
  });

  it('uploading the same bytes elsewhere is a new file: dedupe says nothing of other collections', async () => {
    const first = await json<{ id: string; duplicate: boolean }>(
      await upload(bobToken, secretPdf(), 'mine.pdf'),
    );
    expect(first.duplicate).toBe(false);
    expect(first.id).not.toBe(secretFile.id);
    const again = await json<{ id: string; duplicate: boolean }>(
      await upload(bobToken, secretPdf(), 'mine-again.pdf'),
    );
    expect(again).toMatchObject({ id: first.id, duplicate: true });
    expect(
      (await call(`/moduleknowledge/file?id=${first.id}`, { method: 'DELETE', token: bobToken }))
        .status,
    ).toBe(204);
  });
});

describe('a question without filters', () => {
  // The route names the files a user can read in the vector list's filter when they are a small
  // scope (store/search.ts smallScopeQuery): a hint for the planner that must leave out nothing
  // the user could be shown.
  it('names only files the user can read, within the limits, and finds the same chunks', async () => {
    const carol = await createUser();
    const carolToken = await tokenFor(carol.username, carol.password);
    const tag = crypto.randomUUID().slice(0, 6);
    const own = await json<Collection>(
      await call('/moduleknowledge/collection', {
        token: carolToken,
        json: { name: `Own ${tag}` },
      }),
    );
    const text = `The Sandpiper${tag} depot inventory lists forty crates of survey markers.`;
    const file = await json<{ id: string; chunks: number }>(
      await upload(carolToken, makeTextPdf([text]), 'depot.pdf', own.id),
    );
    const [stored] = await queryRows<{ embedding: string }>(
      sql`select embedding::text as embedding from chunks where file_id = ${file.id} limit 1`,
    );
    const vector = JSON.parse(stored!.embedding) as number[];
    try {
      const everything = { chunks: Number.MAX_SAFE_INTEGER, files: 1_000_000 };
      // One snapshot for the lookup and the searches: other test files upload and delete in the
      // shared collection meanwhile.
      const seen = await asAppRole(
        { id: carol.id },
        async (tx) => {
          const scope = async (limits: { chunks: number; files: number }) =>
            (await tx.execute<{ ids: string[] | null }>(smallScopeQuery(limits))).rows[0]?.ids;
          // Exactly, both ways: the HNSW scan's approximation must not blur the comparison.
          await tx.execute(sql`set local enable_indexscan = off`);
          const ids = await scope(everything);
          const search = async (mode: 'vector' | 'hybrid', readableFileIds?: string[]) => {
            const options = {
              mode,
              top: 10,
              vector,
              embeddingModel: MODEL,
              terms: queryTerms(text),
            };
            const query = searchQuery(readableFileIds ? { ...options, readableFileIds } : options);
            return (await tx.execute<{ id: string; file_id: string }>(query)).rows;
          };
          const searches = [];
          for (const mode of ['vector', 'hybrid'] as const) {
            searches.push({ mode, unhinted: await search(mode), hinted: await search(mode, ids!) });
          }
          return {
            ids,
            oneFileTooMany: await scope({ ...everything, files: ids!.length - 1 }),
            oneChunkTooMany: await scope({ ...everything, chunks: file.chunks - 1 }),
            searches,
          };
        },
        { isolationLevel: 'repeatable read' },
      );
      expect(seen.ids).toContain(file.id);
      expect(seen.ids).not.toContain(secretFile.id);
      const foreign = await queryRows<{ id: string }>(
        sql`select id from files where id = any(${`{${seen.ids!.join(',')}}`}::uuid[])
            and collection_id not in (${SHARED}::uuid, ${own.id}::uuid)`,
      );
      expect(foreign).toEqual([]);
      expect(seen.oneFileTooMany).toBeUndefined();
      // Her own file alone holds more chunks than that.
      expect(seen.oneChunkTooMany).toBeUndefined();
      for (const { mode, unhinted, hinted } of seen.searches) {
        expect(
          unhinted.map((r) => r.file_id),
          mode,
        ).toContain(file.id);
        expect(hinted, mode).toEqual(unhinted);
      }
      // And through the route, whichever way the scope went.
      const found = await json<{ file_id: string }[]>(await query(carolToken, { text }));
      expect(found[0]?.file_id).toBe(file.id);
      expect(found.map((r) => r.file_id)).not.toContain(secretFile.id);
    } finally {
      await call(`/moduleknowledge/collection?id=${own.id}`, {
        method: 'DELETE',
        token: carolToken,
      });
    }
  });
});

describe('members', () => {
  it('a viewer reads and searches but cannot upload or delete; an editor can; removal is at once', async () => {
    expect((await addMember(aliceToken, secret.id, bob.username, 'viewer')).status).toBe(200);
    expect((await addMember(aliceToken, secret.id, bob.username, 'editor')).status).toBe(409);
    const found = await json<{ file_id: string }[]>(
      await query(bobToken, { text: `${SECRET_WORD} merger price`, collection_id: secret.id }),
    );
    expect(found[0]?.file_id).toBe(secretFile.id);
    expect(
      (await call(`/moduleknowledge/download?id=${secretFile.id}`, { token: bobToken })).status,
    ).toBe(200);
    expect(
      (await upload(bobToken, makeTextPdf(['Viewer upload.']), 'v.pdf', secret.id)).status,
    ).toBe(403);
    expect(
      (
        await call(`/moduleknowledge/file?id=${secretFile.id}`, {
          method: 'DELETE',
          token: bobToken,
        })
      ).status,
    ).toBe(403);
    expect((await addMember(bobToken, secret.id, bob.username, 'owner')).status).toBe(403);

    const promoted = await call('/moduleknowledge/collection_member', {
      method: 'PUT',
      token: aliceToken,
      json: { collection_id: secret.id, user_id: bob.id, role: 'editor' },
    });
    expect(promoted.status).toBe(200);
    const bobs = await json<{ id: string }>(
      await upload(
        bobToken,
        makeTextPdf([`Editor note on ${SECRET_WORD}.`]),
        'note.pdf',
        secret.id,
      ),
    );
    expect(
      (await call(`/moduleknowledge/file?id=${bobs.id}`, { method: 'DELETE', token: bobToken }))
        .status,
    ).toBe(204);

    expect((await removeMember(aliceToken, secret.id, bob.id)).status).toBe(204);
    expect(
      (await call(`/moduleknowledge/collection?id=${secret.id}`, { token: bobToken })).status,
    ).toBe(404);
    expect((await query(bobToken, { text: 'merger', collection_id: secret.id })).status).toBe(404);
  });

  it('a collection keeps an owner; unknown users are not found; the shared collection has no members', async () => {
    const leave = await removeMember(aliceToken, secret.id, alice.id);
    expect(leave.status).toBe(409);
    expect(await leave.text()).toContain('last_owner');
    const demote = await call('/moduleknowledge/collection_member', {
      method: 'PUT',
      token: aliceToken,
      json: { collection_id: secret.id, user_id: alice.id, role: 'viewer' },
    });
    expect(demote.status).toBe(409);
    expect(
      (await addMember(aliceToken, secret.id, `nobody-${crypto.randomUUID()}`, 'viewer')).status,
    ).toBe(404);
    expect((await addMember(aliceToken, secret.id, bob.username, 'admin')).status).toBe(400);
    // Alice is not an owner of the shared collection: it is not there for her to manage.
    expect((await addMember(aliceToken, SHARED, bob.username, 'viewer')).status).toBe(403);
    expect(
      (
        await call(`/moduleknowledge/collection?id=${SHARED}`, {
          method: 'DELETE',
          token: aliceToken,
        })
      ).status,
    ).toBe(403);
  });
});

describe('moving and deleting', () => {
  it('a moved file takes its chunks along; a deleted collection takes its files and originals', async () => {
    const box = await json<Collection>(
      await call('/moduleknowledge/collection', { token: aliceToken, json: { name: 'Box' } }),
    );
    const file = await json<{ id: string }>(
      await upload(
        aliceToken,
        makeTextPdf([`Box note ${crypto.randomUUID()}.`]),
        'box.pdf',
        box.id,
      ),
    );
    const moved = await json<{ collection: { id: string } }>(
      await call('/moduleknowledge/file_move', {
        token: aliceToken,
        json: { id: file.id, collection_id: secret.id },
      }),
    );
    expect(moved.collection.id).toBe(secret.id);
    const chunkCollections = await queryRows<{ collection_id: string }>(
      sql`select distinct collection_id from chunks where file_id = ${file.id}::uuid`,
    );
    expect(chunkCollections).toEqual([{ collection_id: secret.id }]);
    // Bob may not move a file into a collection he cannot write.
    expect(
      (
        await call('/moduleknowledge/file_move', {
          token: bobToken,
          json: { id: file.id, collection_id: SHARED },
        })
      ).status,
    ).toBe(404);

    const back = await call('/moduleknowledge/file_move', {
      token: aliceToken,
      json: { id: file.id, collection_id: box.id },
    });
    expect(back.status).toBe(200);
    expect(
      (
        await call(`/moduleknowledge/collection?id=${box.id}`, {
          method: 'DELETE',
          token: aliceToken,
        })
      ).status,
    ).toBe(204);
    expect(await queryRows(sql`select id from files where id = ${file.id}::uuid`)).toEqual([]);
    expect(await queryRows(sql`select id from chunks where file_id = ${file.id}::uuid`)).toEqual(
      [],
    );
    expect(await env.FILES.head(file.id)).toBeNull();
  });
});

describe('the database itself, asked as the workers’ role', () => {
  it('is a role that row-level security applies to: not superuser, not BYPASSRLS, owns no table', async () => {
    const [role] = await asAppRole(
      undefined,
      async (tx) =>
        (
          await tx.execute<{
            rolsuper: boolean;
            rolbypassrls: boolean;
            owns: number;
            member: boolean;
          }>(sql`
          select r.rolsuper, r.rolbypassrls,
                 (select count(*)::int from pg_tables t where t.tableowner = current_user) as owns,
                 pg_has_role(current_user, 'kbchat_app', 'member') as member
          from pg_roles r where r.rolname = current_user`)
        ).rows,
    );
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false, owns: 0, member: true });
  });

  it('answers unfiltered statements with only what the user may read', async () => {
    const seen = await asAppRole({ id: bob.id }, async (tx) => {
      const count = async (table: string, where = sql``) =>
        Number(
          (
            await tx.execute<{ n: string }>(
              sql`select count(*) as n from ${sql.identifier(table)} ${where}`,
            )
          ).rows[0]!.n,
        );
      const inSecret = sql`where collection_id = ${secret.id}::uuid`;
      return {
        collections: await count('collections', sql`where id = ${secret.id}::uuid`),
        members: await count('collection_members', inSecret),
        files: await count('files', inSecret),
        chunks: await count('chunks', inSecret),
        pages: await count('file_pages', sql`where file_id = ${secretFile.id}::uuid`),
        // The nearest chunks by vector, with no collection filter at all.
        nearest: (
          await tx.execute<{ collection_id: string }>(sql`
            select collection_id from chunks
            order by embedding <=> (select embedding from chunks limit 1) limit 200`)
        ).rows.filter((r) => r.collection_id === secret.id).length,
      };
    });
    expect(seen).toEqual({ collections: 0, members: 0, files: 0, chunks: 0, pages: 0, nearest: 0 });
    // The owner of the tables sees them: the rows are there.
    const [owner] = await queryRows<{ n: number }>(
      sql`select count(*)::int as n from chunks where collection_id = ${secret.id}::uuid`,
    );
    expect(owner!.n).toBeGreaterThan(0);
  });

  it('without a session sees no document data at all, and cannot write any', async () => {
    const result = await asAppRole(undefined, async (tx) => ({
      files: (await tx.execute(sql`select id from files`)).rows.length,
      chunks: (await tx.execute(sql`select id from chunks limit 1`)).rows.length,
      deleted: (await tx.execute(sql`delete from chunks returning id`)).rows.length,
      renamed: (await tx.execute(sql`update files set name = 'x' returning id`)).rows.length,
    }));
    expect(result).toEqual({ files: 0, chunks: 0, deleted: 0, renamed: 0 });
  });

  it('refuses writes the user may not make, whatever the statement says', async () => {
    const renamed = await asAppRole(
      { id: bob.id },
      async (tx) =>
        (
          await tx.execute(
            sql`update files set name = 'pwned' where collection_id = ${secret.id}::uuid returning id`,
          )
        ).rows.length,
    );
    expect(renamed).toBe(0);
    expect(
      await databaseError(
        asAppRole({ id: bob.id }, (tx) =>
          tx.execute(sql`
            insert into files (name, size, sha256, pages, chunks, uploader_id, uploader_name, collection_id)
            values ('x.pdf', 1, 'x', 0, 0, ${bob.id}::uuid, 'bob', ${secret.id}::uuid)`),
        ),
      ),
    ).toMatch(/row-level security/);
    expect(
      await databaseError(
        asAppRole({ id: bob.id }, (tx) =>
          tx.execute(sql`
            insert into collection_members (collection_id, user_id, username, role)
            values (${secret.id}::uuid, ${bob.id}::uuid, 'bob', 'owner')`),
        ),
      ),
    ).toMatch(/row-level security/);
    // Setting another user's id by hand is not a session: kbchat_session checks the epoch.
    expect(
      await databaseError(
        asAppRole(undefined, (tx) =>
          tx.execute(sql`select kbchat_session(${alice.id}::uuid, -1, false)`),
        ),
      ),
    ).toMatch(/session ended/);
  });

  it('keyword search under row-level security still uses the GIN index (through its function)', async () => {
    const scans = async () => {
      // Postgres publishes a backend's counters at most once a second, unless told to at the
      // end of the next transaction (a busy machine made a 5-second wait too short).
      await queryRows(sql`select pg_stat_force_next_flush()`);
      return Number(
        (
          await queryRows<{ n: string }>(
            sql`select coalesce(sum(idx_scan), 0) as n from pg_stat_user_indexes
                where indexrelname = 'chunks_search_terms_idx'`,
          )
        )[0]!.n,
      );
    };
    const before = await scans();
    const found = await json<{ file_id: string }[]>(
      await query(aliceToken, { text: SECRET_WORD, mode: 'keyword' }),
    );
    expect(found[0]?.file_id).toBe(secretFile.id);
    await expect.poll(scans, { timeout: 15_000, interval: 250 }).toBeGreaterThan(before);
  });
});
