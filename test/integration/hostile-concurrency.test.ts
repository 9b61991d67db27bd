// The same new bytes uploaded several times at once: exactly one file is stored (one row, its
// pages and chunks once, one object in the bucket); every other upload answers that same file
// with `duplicate: true`, and the losers' originals are not left behind.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../../dev/fixtures/hostile-pdfs';
import { createUser, seededAdminToken, tokenFor, type TestUser } from '../helpers/auth';
import { queryRows } from '../helpers/database';
import {
  bucketHashes,
  bucketKeys,
  deleteFile,
  sha256Hex,
  storeCounts,
  upload,
  type Uploaded,
} from '../helpers/hostile';

let users: TestUser[] = [];
let tokens: string[] = [];
const cleanup: string[] = [];

beforeAll(async () => {
  users = await Promise.all([createUser(), createUser()]);
  tokens = await Promise.all(users.map((u) => tokenFor(u.username, u.password)));
});

afterAll(async () => {
  const admin = await seededAdminToken();
  for (const id of cleanup) await deleteFile(admin, id);
});

async function race(copies: number, bytes: Uint8Array, tokenOf: (i: number) => string) {
  const responses = await Promise.all(
    Array.from({ length: copies }, (_, i) => upload(tokenOf(i), bytes, `race-${i}.pdf`)),
  );
  const bodies = await Promise.all(responses.map((res) => res.text()));
  return responses.map((res, i) => ({ status: res.status, body: bodies[i]! }));
}

describe.each([
  ['one user, 5 at once', 5, (_i: number) => tokens[0]!],
  ['two users, 8 at once', 8, (i: number) => tokens[i % 2]!],
])('%s', (_, copies, tokenOf) => {
  it('stores exactly one file; the others answer it as a duplicate', async () => {
    const bytes = textPdf(
      `Concurrent upload of the Ashgrove ferry timetable ${crypto.randomUUID()}.`,
    );
    const sha = await sha256Hex(bytes);
    const before = await storeCounts();
    const keysBefore = new Set(await bucketKeys());

    const answers = await race(copies, bytes, tokenOf);

    for (const answer of answers) expect(answer.status, answer.body).toBe(200);
    const results = answers.map((a) => (JSON.parse(a.body) as { data: Uploaded }).data);
    const ids = new Set(results.map((r) => r.id));
    expect(ids.size, JSON.stringify(results)).toBe(1);
    const [id] = [...ids] as [string];
    cleanup.push(id);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(results.filter((r) => r.duplicate)).toHaveLength(copies - 1);
    const first = results.find((r) => !r.duplicate)!;
    for (const r of results) {
      expect({ ...r, duplicate: false, name: first.name }).toEqual(first);
    }

    const rows = await queryRows<{ id: string; chunks: number; pages: number }>(
      sql`select id::text as id, chunks, pages from files where sha256 = ${sha}`,
    );
    expect(rows).toEqual([{ id, chunks: first.chunks, pages: first.pages }]);
    const after = await storeCounts();
    expect(after.files).toBe(before.files + 1);
    expect(after.pages).toBe(before.pages + first.pages);
    expect(after.chunks).toBe(before.chunks + first.chunks);
    // One new object, the winner's: the losers removed theirs.
    const newKeys = (await bucketKeys()).filter((key) => !keysBefore.has(key));
    expect(newKeys).toEqual([id]);
    const stored = [...(await bucketHashes()).entries()].filter(([, hash]) => hash === sha);
    expect(stored.map(([key]) => key)).toEqual([id]);
  });
});
