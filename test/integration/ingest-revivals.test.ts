import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setProgress } from '../../workers/knowledge/src/store/ingest';
import { call, seededAdminToken } from '../helpers/auth';
import { inRolledBackTransaction, queryRows } from '../helpers/database';

// An ingest that dies in the same place every time (a document that takes its parser's
// isolate down) must not be revived forever: the watchdog's claim gives it up after
// INGEST_MAX_REVIVALS revivals without progress. These tests drive the claim itself, in a
// transaction that is rolled back, with a staleness (an hour) that no other test's file
// reaches, so that the stack's own watchdog and the other tests never see these rows.

interface Claimed extends Record<string, unknown> {
  id: string;
  gave_up: boolean;
}
interface Row extends Record<string, unknown> {
  status: string;
  revivals: number;
  error_code: string | null;
  error_message: string | null;
}

async function readyFile(text: string): Promise<{ id: string; token: string }> {
  const token = await seededAdminToken();
  const form = new FormData();
  form.append('file', new File([text], 'revived.txt', { type: 'text/plain' }));
  const res = await call('/moduleknowledge/upload', { method: 'POST', body: form, token });
  expect(res.status, await res.clone().text()).toBe(200);
  return { id: (await res.json<{ data: { id: string } }>()).data.id, token };
}

type Tx = Parameters<Parameters<typeof inRolledBackTransaction>[0]>[0];

const processing = (tx: Tx, id: string) =>
  tx.execute(sql`update files set status = 'processing' where id = ${id}`);
/** No step has written progress for two hours (the claim itself moves updated_at on). */
const stall = (tx: Tx, id: string) =>
  tx.execute(sql`update files set updated_at = now() - interval '2 hours' where id = ${id}`);
const claim = async (tx: Tx, id: string) =>
  (
    await tx.execute<Claimed>(sql`select * from kbchat_claim_stalled_files(3600, 1000, 3)`)
  ).rows.find((row) => row.id === id);
const rowOf = async (tx: Tx, id: string) =>
  (
    await tx.execute<Row>(
      sql`select status, revivals, error_code, error_message from files where id = ${id}`,
    )
  ).rows[0]!;

describe('an ingest revived again and again without progress', () => {
  it('is revived three times, then fails as ingest_gave_up with words the uploader can act on', async () => {
    const { id } = await readyFile(`Revival limit ${crypto.randomUUID()}.`);
    const seen = await inRolledBackTransaction(async (tx) => {
      const claims: (Claimed | undefined)[] = [];
      await processing(tx, id);
      for (let i = 0; i < 5; i++) {
        await stall(tx, id);
        claims.push(await claim(tx, id));
      }
      return { claims, row: await rowOf(tx, id) };
    });
    expect(seen.claims.map((c) => c?.gave_up)).toEqual([false, false, false, true, undefined]);
    expect(seen.row).toMatchObject({ status: 'failed', error_code: 'ingest_gave_up' });
    expect(seen.row.error_message).toMatch(/stopped 4 times .* given up/);
  });

  it('starts counting again when a step makes progress, but not when a step only fails', async () => {
    const { id } = await readyFile(`Revival progress ${crypto.randomUUID()}.`);
    const revivals = await inRolledBackTransaction(async (tx) => {
      const counts: number[] = [];
      await processing(tx, id);
      await stall(tx, id);
      await claim(tx, id);
      await stall(tx, id);
      await claim(tx, id);
      counts.push((await rowOf(tx, id)).revivals);
      // A step that failed and will be retried writes its error: that is not progress.
      await setProgress(tx as never, id, { errorCode: 'model_unavailable', errorMessage: 'away' });
      counts.push((await rowOf(tx, id)).revivals);
      await setProgress(tx as never, id, { chunksDone: 1 });
      counts.push((await rowOf(tx, id)).revivals);
      return counts;
    });
    expect(revivals).toEqual([2, 2, 0]);
  });

  it('a retry by a person starts the count again, and the file is ingested', async () => {
    const { id, token } = await readyFile(`Revival retry ${crypto.randomUUID()}.`);
    await queryRows(
      sql`update files set status = 'failed', revivals = 3, error_code = 'ingest_gave_up',
            error_message = 'given up' where id = ${id} returning id`,
    );
    const res = await call('/moduleknowledge/file_retry', { token, json: { id } });
    expect(res.status, await res.clone().text()).toBe(200);
    await expect
      .poll(
        async () =>
          (await queryRows<Row>(sql`select status, revivals from files where id = ${id}`))[0],
        { timeout: 15_000 },
      )
      .toMatchObject({ status: 'ready', revivals: 0 });
  });
});
