// Authorisation across the three modules, over HTTP and over RPC:
// - a user cannot delete another user's file (the knowledge base is shared for reading only);
// - a USER reaches no @role(SUPER_ADMIN) route, and nothing changes when they try;
// - over RPC only the methods marked @grpc exist at all;
// - a disabled (or deleted) user's still-valid token is refused by auth, knowledge and chat.
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../../dev/fixtures/hostile-pdfs';
import { authService } from '#shared/contracts/auth';
import { chatService } from '#shared/contracts/chat';
import { knowledgeService } from '#shared/contracts/knowledge';
import {
  ACCESS_DENIED,
  UNAUTHORISED,
  call,
  createUser,
  deleteUser,
  refusal,
  seededAdminToken,
  setDisabled,
  setRole,
  tokenFor,
  uniqueName,
  type TestUser,
} from '../helpers/auth';
import { queryRows, userRow } from '../helpers/database';
import { bucketKeys, deleteFile, storeCounts, uploadOk, type Uploaded } from '../helpers/hostile';

let admin = '';
let alice: TestUser; // uploads
let bob: TestUser; // another USER
let aliceToken = '';
let bobToken = '';
let aliceFile: Uploaded;
const cleanupFiles: string[] = [];
const cleanupUsers: string[] = [];

const SECRET_WORD = `Pellucidar${crypto.randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  admin = await seededAdminToken();
  [alice, bob] = await Promise.all([createUser(), createUser()]);
  cleanupUsers.push(alice.id, bob.id);
  [aliceToken, bobToken] = await Promise.all([
    tokenFor(alice.username, alice.password),
    tokenFor(bob.username, bob.password),
  ]);
  aliceFile = await uploadOk(
    aliceToken,
    textPdf(`Alice's notes on the ${SECRET_WORD} lighthouse keeper rota.`),
    'alice-notes.pdf',
  );
  cleanupFiles.push(aliceFile.id);
});

afterAll(async () => {
  for (const id of cleanupFiles) await deleteFile(admin, id);
  for (const id of cleanupUsers) await deleteUser(id);
});

/**
 * How a call over a service binding ends. Awaited directly: touching any other property of a
 * JS RPC promise (as `expect(...).rejects` does) starts a pipelined call of its own, whose
 * rejection nobody handles.
 */
async function settle(call: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  try {
    await call();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}

const NOT_IMPLEMENTED = /does not implement the method/;

async function fileStillThere(id: string, token: string) {
  const [row] = await queryRows<{ id: string }>(
    sql`select id::text as id from files where id = ${id}`,
  );
  expect(row?.id, 'file row').toBe(id);
  expect(await env.FILES.head(id), 'stored original').not.toBeNull();
  const res = await call(
    `/moduleknowledge/query?${new URLSearchParams({ text: `${SECRET_WORD} lighthouse`, file_id: id })}`,
    { token },
  );
  expect(res.status).toBe(200);
  const { data } = await res.json<{ data: { file_id: string }[] }>();
  expect(data.map((r) => r.file_id)).toContain(id);
}

describe("deleting another user's file", () => {
  it('is 403 Access denied for another USER; the file stays, still listed, downloadable and queryable', async () => {
    const res = await call(`/moduleknowledge/file?id=${aliceFile.id}`, {
      method: 'DELETE',
      token: bobToken,
    });
    expect(await refusal(res)).toEqual(ACCESS_DENIED);
    await fileStillThere(aliceFile.id, bobToken);
    // Reading is shared: Bob sees and downloads it.
    const list = await call(`/moduleknowledge/list?file_id=${aliceFile.id}`, { token: bobToken });
    expect((await list.json<{ data: { id: string }[] }>()).data.map((f) => f.id)).toEqual([
      aliceFile.id,
    ]);
    const download = await call(`/moduleknowledge/download?id=${aliceFile.id}`, {
      token: bobToken,
    });
    expect(download.status).toBe(200);
    await download.arrayBuffer();
  });

  it('no variant of the request gets around it: upper-case id, ?t= token, form token, both tokens', async () => {
    const variants: [string, Parameters<typeof call>[1]][] = [
      [
        `/moduleknowledge/file?id=${aliceFile.id.toUpperCase()}`,
        { method: 'DELETE', token: bobToken },
      ],
      [`/moduleknowledge/file?id=${aliceFile.id}&t=${bobToken}`, { method: 'DELETE' }],
      [
        `/moduleknowledge/file?id=${aliceFile.id}`,
        {
          method: 'DELETE',
          body: `t=${bobToken}`,
          contentType: 'application/x-www-form-urlencoded',
        },
      ],
      // The header wins over ?t=: Bob's header with Alice's token in the query is still Bob.
      [
        `/moduleknowledge/file?id=${aliceFile.id}&t=${aliceToken}`,
        { method: 'DELETE', token: bobToken },
      ],
      [
        `/moduleknowledge/file?id=${aliceFile.id}&id=${crypto.randomUUID()}`,
        { method: 'DELETE', token: bobToken },
      ],
    ];
    for (const [path, options] of variants) {
      const res = await call(path, options);
      expect(await refusal(res), path.replace(/t=[^&]+/, 't=…')).toEqual(ACCESS_DENIED);
    }
    await fileStillThere(aliceFile.id, bobToken);
  });

  it('is not possible over RPC either: DeleteFile is not exposed on the knowledge binding', async () => {
    const binding = env.KNOWLEDGE_RPC as unknown as Record<
      string,
      (...args: unknown[]) => Promise<unknown>
    >;
    const outcome = await settle(() =>
      binding.DeleteFile!({ id: aliceFile.id }, { identity: { token: admin } }),
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(NOT_IMPLEMENTED);
    await fileStillThere(aliceFile.id, bobToken);
  });

  it('a super admin demoted to USER is refused at once by knowledge: the old session ended, and as a USER it is 403', async () => {
    const former = await createUser({ superAdmin: true });
    cleanupUsers.push(former.id);
    const formerToken = await tokenFor(former.username, former.password);
    expect((await setRole(former.id, false)).status).toBe(200);
    const res = await call(`/moduleknowledge/file?id=${aliceFile.id}`, {
      method: 'DELETE',
      token: formerToken,
    });
    expect(await refusal(res)).toEqual(UNAUTHORISED);
    const asUser = await call(`/moduleknowledge/file?id=${aliceFile.id}`, {
      method: 'DELETE',
      token: await tokenFor(former.username, former.password),
    });
    expect(await refusal(asUser)).toEqual(ACCESS_DENIED);
    await fileStillThere(aliceFile.id, bobToken);
  });

  it('the uploader and a SUPER_ADMIN may delete (204), and then it is gone everywhere', async () => {
    const own = await uploadOk(
      aliceToken,
      textPdf(`Alice's own ${crypto.randomUUID()}`),
      'own.pdf',
    );
    expect((await deleteFile(aliceToken, own.id)).status).toBe(204);
    const other = await uploadOk(
      aliceToken,
      textPdf(`Alice's other ${crypto.randomUUID()}`),
      'other.pdf',
    );
    expect((await deleteFile(admin, other.id)).status).toBe(204);
    expect(await env.FILES.head(other.id)).toBeNull();
    expect(
      (await call(`/moduleknowledge/download?id=${other.id}`, { token: bobToken })).status,
    ).toBe(404);
  });
});

describe('a USER and the @role(SUPER_ADMIN) routes', () => {
  const adminRoutes = [authService, knowledgeService, chatService].flatMap((service) =>
    service.routes.filter((route) => route.roles?.includes('SUPER_ADMIN')),
  );

  it('the declarations list the user-management routes (everyone’s API keys, the unhelpful answers) as SUPER_ADMIN only', () => {
    expect(adminRoutes.map((r) => r.name).sort()).toEqual(
      [
        'CreateUser',
        'DeleteUser',
        'GetAudit',
        'GetAuditExport',
        'GetLimits',
        'PutLimits',
        'GetUsageAll',
        'ListAllApiKeys',
        'GetUnhelpfulAnswers',
        'PutUnhelpfulResolved',
        'ListUsers',
        'PostUserLogoutAll',
        'PutUserPassword',
        'PutUserRole',
        'PutUserStatus',
      ].sort(),
    );
    for (const route of adminRoutes) expect(route.roles, route.name).toEqual(['SUPER_ADMIN']);
  });

  it('every one answers a USER 403 Access denied over HTTP, and nothing changes', async () => {
    const otherAdmin = await createUser({ superAdmin: true });
    const victim = await createUser();
    cleanupUsers.push(otherAdmin.id, victim.id);
    const adminBefore = await userRow(otherAdmin.id);
    const bobBefore = await userRow(bob.id);
    const usersBefore = (await storeCounts()).users;
    const limitsBefore = await queryRows(sql`select * from usage_limits`);
    const newName = uniqueName('by-user');

    // A valid request for each route (refusal must come from the role, not from validation).
    const requests: Record<string, { path: string; method: string; json?: unknown }> = {
      ListUsers: { path: '/moduleauth/users?page=1&size=100', method: 'GET' },
      CreateUser: {
        path: '/moduleauth/user',
        method: 'POST',
        json: { username: newName, password: 'password-123', super_admin: true },
      },
      PutUserRole: {
        path: '/moduleauth/user_role',
        method: 'PUT',
        json: { user_id: bob.id, super_admin: true },
      },
      PutUserStatus: {
        path: '/moduleauth/user_status',
        method: 'PUT',
        json: { user_id: otherAdmin.id, disabled: true },
      },
      PutUserPassword: {
        path: '/moduleauth/user_password',
        method: 'PUT',
        json: { user_id: otherAdmin.id, password: 'taken-over-by-bob' },
      },
      PostUserLogoutAll: {
        path: '/moduleauth/user_logout_all',
        method: 'POST',
        json: { user_id: otherAdmin.id },
      },
      DeleteUser: { path: `/moduleauth/user?user_id=${victim.id}`, method: 'DELETE' },
      ListAllApiKeys: { path: '/moduleauth/all_api_keys?page=1&size=100', method: 'GET' },
      GetAudit: { path: '/moduleauth/audit?page=1&size=10', method: 'GET' },
      GetAuditExport: { path: '/moduleauth/audit/export?action=auth.', method: 'GET' },
      GetLimits: { path: '/modulechat/limits', method: 'GET' },
      PutLimits: {
        path: '/modulechat/limits',
        method: 'PUT',
        json: {
          user_daily_tokens: 1,
          user_daily_questions: 1,
          collection_max_bytes: 1,
          collection_max_files: 1,
          audit_questions: false,
          audit_retention_days: 30,
        },
      },
      GetUsageAll: { path: '/modulechat/usage_all', method: 'GET' },
      GetUnhelpfulAnswers: { path: '/modulechat/unhelpful_answers?page=1&size=100', method: 'GET' },
      PutUnhelpfulResolved: {
        path: '/modulechat/unhelpful_resolved',
        method: 'PUT',
        json: { message_id: crypto.randomUUID(), resolved: true },
      },
    };
    for (const route of adminRoutes) {
      const request = requests[route.name];
      expect(request, `no request written for ${route.name}`).toBeDefined();
      expect(`${request!.method} ${request!.path.split('?')[0]}`).toBe(
        `${route.httpMethod} ${route.fullPath}`,
      );
      for (const via of ['header', 'query'] as const) {
        const path =
          via === 'query'
            ? `${request!.path}${request!.path.includes('?') ? '&' : '?'}t=${bobToken}`
            : request!.path;
        const res = await call(path, {
          method: request!.method,
          token: via === 'header' ? bobToken : undefined,
          json: request!.json,
        });
        expect(await refusal(res), `${route.name} (token in ${via})`).toEqual(ACCESS_DENIED);
      }
    }

    expect(await userRow(otherAdmin.id)).toEqual(adminBefore);
    expect(await userRow(bob.id)).toEqual(bobBefore);
    expect(await userRow(victim.id)).toBeDefined();
    expect((await storeCounts()).users).toBe(usersBefore);
    const [created] = await queryRows(
      sql`select 1 from users where lower(username) = lower(${newName})`,
    );
    expect(created).toBeUndefined();
    expect(await queryRows(sql`select * from usage_limits`)).toEqual(limitsBefore);
  });

  it('a USER token whose role claim says SUPER_ADMIN is not enough: no route reads the claim', async () => {
    // The claim is signed, so forging it needs the key (auth-tokens.test.ts does that); here:
    // the same user promoted and demoted again gets 403 again with the same token.
    const res = await call('/moduleauth/users', { token: bobToken });
    expect(await refusal(res)).toEqual(ACCESS_DENIED);
  });
});

describe('over RPC only the @grpc methods exist', () => {
  type Untyped = Record<string, (params: unknown, meta?: unknown) => Promise<unknown>>;
  const auth = () => env.AUTH_RPC as unknown as Untyped;
  const knowledge = () => env.KNOWLEDGE_RPC as unknown as Untyped;

  it('the declarations expose GetMe on auth, GetChunk, GetContext, GetHealth, GetList, GetPage, GetQuery and PostFileStates on knowledge (chat’s MCP tools read files and pages through them; a stored answer’s sources are told as they stand now), nothing on chat', () => {
    const exposed = (service: { routes: readonly { name: string; rpc: boolean }[] }) =>
      service.routes
        .filter((r) => r.rpc)
        .map((r) => r.name)
        .sort();
    expect(exposed(authService)).toEqual(['GetMe']);
    expect(exposed(knowledgeService)).toEqual([
      'GetChunk',
      'GetContext',
      'GetHealth',
      'GetList',
      'GetPage',
      'GetQuery',
      'PostFileStates',
    ]);
    expect(authService.routes.find((r) => r.name === 'GetMe')?.roles).toBeUndefined();
  });

  it('GetMe answers the caller, not anyone else, and needs a token', async () => {
    const me = await env.AUTH_RPC.GetMe({}, { identity: { token: bobToken } });
    expect(me).toMatchObject({
      ok: true,
      data: { id: bob.id, username: bob.username, role: 'USER' },
    });
    const asOther = await auth().GetMe!(
      { user_id: alice.id, id: alice.id },
      { identity: { token: bobToken } },
    );
    expect(asOther).toMatchObject({ ok: true, data: { id: bob.id } });
    for (const identity of [
      undefined,
      {},
      { token: '' },
      { token: 'x' },
      { token: bobToken.slice(0, -2) },
    ]) {
      const result = await env.AUTH_RPC.GetMe({}, { identity });
      expect(result, JSON.stringify(identity)).toMatchObject({ ok: false, error: { status: 401 } });
    }
  });

  it.each([
    'ListUsers',
    'CreateUser',
    'PutUserRole',
    'PutUserStatus',
    'PutUserPassword',
    'PostUserLogoutAll',
    'DeleteUser',
    'PostLogin',
    'PostSignup',
    'PutPassword',
    'GetHealth',
    'GetJwks',
  ])('auth %s does not exist on the binding, even for a super admin', async (method) => {
    const usersBefore = (await storeCounts()).users;
    const params = {
      page: 1,
      size: 10,
      user_id: bob.id,
      body: {
        username: uniqueName('rpc'),
        password: 'password-123',
        user_id: bob.id,
        super_admin: true,
        disabled: true,
      },
    };
    for (const token of [bobToken, admin]) {
      const outcome = await settle(() => auth()[method]!(params, { identity: { token } }));
      expect(outcome.ok, method).toBe(false);
      expect(outcome.error, method).toMatch(NOT_IMPLEMENTED);
    }
    expect((await storeCounts()).users).toBe(usersBefore);
    expect(await userRow(bob.id)).toMatchObject({ is_super_admin: false, disabled: false });
  });

  it.each(['Upload', 'DeleteFile', 'GetDownload'])(
    'knowledge %s does not exist on the binding',
    async (method) => {
      const outcome = await settle(() =>
        knowledge()[method]!({ id: aliceFile.id }, { identity: { token: admin } }),
      );
      expect(outcome.ok, method).toBe(false);
      expect(outcome.error, method).toMatch(NOT_IMPLEMENTED);
      await fileStillThere(aliceFile.id, bobToken);
    },
  );

  it('the RPC entrypoints do not serve HTTP: fetch over the binding reaches no route', async () => {
    for (const [name, binding] of [
      ['auth', env.AUTH_RPC],
      ['knowledge', env.KNOWLEDGE_RPC],
    ] as const) {
      const fetcher = binding as unknown as { fetch: (req: Request) => Promise<Response> };
      const outcome = await fetcher
        .fetch(
          new Request('http://kb.test/moduleauth/users', {
            headers: { Authorization: `Bearer ${admin}` },
          }),
        )
        .then(
          (res) => res.status,
          () => 'refused',
        );
      expect(outcome === 'refused' || (typeof outcome === 'number' && outcome >= 400), name).toBe(
        true,
      );
    }
  });
});

describe("a disabled user's still-valid token", () => {
  let dora: TestUser;
  let doraToken = '';
  let doraFile: Uploaded;

  beforeAll(async () => {
    dora = await createUser();
    cleanupUsers.push(dora.id);
    doraToken = await tokenFor(dora.username, dora.password);
    doraFile = await uploadOk(doraToken, textPdf(`Dora's file ${crypto.randomUUID()}`), 'dora.pdf');
    cleanupFiles.push(doraFile.id);
    expect((await setDisabled(dora.id, true)).status).toBe(200);
  });

  const requests = (): [string, string, Parameters<typeof call>[1]][] => [
    ['auth', '/moduleauth/me', {}],
    ['auth', `/moduleauth/me?t=${doraToken}`, { token: undefined }],
    [
      'auth',
      '/moduleauth/password',
      { method: 'PUT', json: { old_password: dora.password, new_password: 'new-password-123' } },
    ],
    ['knowledge', '/moduleknowledge/list', {}],
    ['knowledge', '/moduleknowledge/query?text=Dora', {}],
    ['knowledge', `/moduleknowledge/download?id=${doraFile.id}`, {}],
    ['knowledge', `/moduleknowledge/file?id=${doraFile.id}`, { method: 'DELETE' }],
    [
      'knowledge',
      '/moduleknowledge/upload',
      {
        body: (() => {
          const f = new FormData();
          f.append('file', new File([textPdf(`Disabled upload ${crypto.randomUUID()}`)], 'd.pdf'));
          return f;
        })(),
      },
    ],
    ['chat', '/modulechat/chat', { json: { prompt: 'What is in my file?' } }],
  ];

  it('is refused with 401 Unauthorised by all three modules over HTTP, and changes nothing', async () => {
    const before = await storeCounts();
    const hashBefore = (await userRow(dora.id))?.password_hash;
    for (const [module, path, options] of requests()) {
      const res = await call(path, { token: doraToken, ...options });
      expect(
        await refusal(res),
        `${module} ${options?.method ?? 'GET'} ${path.split('?')[0]}`,
      ).toEqual(UNAUTHORISED);
    }
    expect(await storeCounts()).toEqual(before);
    expect(await env.FILES.head(doraFile.id)).not.toBeNull();
    expect((await userRow(dora.id))?.password_hash).toBe(hashBefore);
  });

  it('is refused over RPC by auth (GetMe) and knowledge (GetQuery)', async () => {
    expect(await env.AUTH_RPC.GetMe({}, { identity: { token: doraToken } })).toMatchObject({
      ok: false,
      error: { status: 401, code: 'unauthenticated' },
    });
    expect(
      await env.KNOWLEDGE_RPC.GetQuery(
        { text: 'Dora', top: 1 },
        { identity: { token: doraToken } },
      ),
    ).toMatchObject({ ok: false, error: { status: 401, code: 'unauthenticated' } });
  });

  it('cannot log in; enabled again, the old token stays ended and a new login works everywhere', async () => {
    const login = await call('/moduleauth/login', {
      json: { username: dora.username, password: dora.password },
    });
    expect(login.status).toBe(401);
    expect((await setDisabled(dora.id, false)).status).toBe(200);
    try {
      expect(await refusal(await call('/moduleauth/me', { token: doraToken }))).toEqual(
        UNAUTHORISED,
      );
      const fresh = await tokenFor(dora.username, dora.password);
      for (const path of [
        '/moduleauth/me',
        '/moduleknowledge/list',
        `/moduleknowledge/download?id=${doraFile.id}`,
      ]) {
        const res = await call(path, { token: fresh });
        expect(res.status, path).toBe(200);
        await res.arrayBuffer();
      }
      const chat = await call('/modulechat/chat', {
        token: fresh,
        json: { prompt: 'Anything?', file_id: crypto.randomUUID() },
      });
      expect(chat.status).toBe(200);
      await chat.text();
    } finally {
      await setDisabled(dora.id, true);
    }
  });

  it("a deleted user's token is refused by knowledge and chat too", async () => {
    const gone = await createUser();
    const goneToken = await tokenFor(gone.username, gone.password);
    expect((await deleteUser(gone.id)).status).toBe(204);
    for (const [path, options] of [
      ['/moduleknowledge/list', {}],
      ['/moduleknowledge/query?text=x', {}],
      ['/modulechat/chat', { json: { prompt: 'x' } }],
      ['/moduleauth/me', {}],
    ] as const) {
      const res = await call(path, { token: goneToken, ...options });
      expect(await refusal(res), path).toEqual(UNAUTHORISED);
    }
    const keys = await bucketKeys();
    expect(keys).toContain(doraFile.id);
  });
});
