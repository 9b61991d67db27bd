import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SHARED_COLLECTION_ID } from '../collection-access';
import { setLocale } from '../i18n/locale';
import { refusal, renderInSession, testSession } from '../testing/session';
import { LimitsPage, limitText, limitValue } from './limits-page';
import { UsageAdminPage } from './usage-admin-page';
import { UsagePage } from './usage-page';
import type { UsageOverview, UsageReport } from './usage-parts';

const zero = {
  questions: 0,
  embedding_tokens: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  total_tokens: 0,
};
const some = (questions: number, tokens: number) => ({
  questions,
  embedding_tokens: tokens / 10,
  prompt_tokens: (tokens * 7) / 10,
  completion_tokens: (tokens * 2) / 10,
  total_tokens: tokens,
});
const days = Array.from({ length: 30 }, (_, i) => ({
  day: `2026-11-${String(i + 1).padStart(2, '0')}`,
  ...(i === 25 ? some(3, 1200) : i === 29 ? some(2, 800) : zero),
}));

const report = (
  limits = { user_daily_questions: 10, user_daily_tokens: null as number | null },
): UsageReport => ({
  from: '2026-11-01',
  to: '2026-11-30',
  totals: some(5, 2000),
  days,
  by_key: [
    { ...some(3, 1200), key_id: null, key_name: null },
    { ...some(2, 800), key_id: crypto.randomUUID(), key_name: 'nightly report' },
  ],
  by_collection: [
    { ...some(5, 2000), collection_id: crypto.randomUUID(), collection_name: 'Policies' },
  ],
  today: { questions: 2, total_tokens: 800, limits, resets_at: '2026-12-01T00:00:00.000Z' },
  storage: { bytes: 3 * 1024 * 1024, limit: null },
});

describe('my usage', () => {
  beforeEach(() => setLocale('en'));

  it('shows today against the limits, a chart with its table, and the keys and collections', async () => {
    const GetUsage = vi.fn(async () => report());
    renderInSession(<UsagePage />, testSession({ chat: { GetUsage } }));
    expect(await screen.findByText('2 of 10')).toBeTruthy();
    expect(screen.getByText('800 (no limit)')).toBeTruthy();
    expect(screen.getByRole('img', { name: /Tokens per day.*highest day is 1,200/ })).toBeTruthy();
    const perDay = screen.getByRole('table', { name: 'Per day (2 days)' });
    const rows = within(perDay).getAllByRole('row');
    expect(rows[1]!.textContent).toContain('2026-11-30');
    const keys = screen.getByRole('table', { name: 'Per API key (2)' });
    expect(within(keys).getByRole('rowheader', { name: 'nightly report' })).toBeTruthy();
    expect(within(keys).getByRole('rowheader', { name: 'Signed in (no key)' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Per collection (1)' }).textContent).toContain(
      'Policies',
    );
    expect(screen.queryByText(/reached a daily limit/)).toBeNull();
    const storage = screen.getByRole('region', { name: 'Storage' });
    expect(storage.textContent).toContain('3.0 MB (no limit)');
    expect(within(storage).queryByText(/storage is full/)).toBeNull();
  });

  it('shows the storage against the limit per user, and says when it is full, in Chinese', async () => {
    setLocale('zh');
    const full = { ...report(), storage: { bytes: 500 * 1024 * 1024, limit: 500 * 1024 * 1024 } };
    renderInSession(<UsagePage />, testSession({ chat: { GetUsage: vi.fn(async () => full) } }));
    const storage = await screen.findByRole('region', { name: '存储' });
    expect(storage.textContent).toContain('500.0 MB / 500.0 MB');
    expect(within(storage).getByText(/您的存储已满/)).toBeTruthy();
  });

  it('says so when a daily limit is reached, in Chinese too', async () => {
    setLocale('zh');
    const GetUsage = vi.fn(async () =>
      report({ user_daily_questions: 2, user_daily_tokens: null }),
    );
    renderInSession(<UsagePage />, testSession({ chat: { GetUsage } }));
    expect(await screen.findByText('您已达到每日限额：在重置之前提问将被拒绝。')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '我的用量' })).toBeTruthy();
  });

  it('names the shared collection in the reader’s language, not by its stored name', async () => {
    setLocale('zh');
    const GetUsage = vi.fn(async () => ({
      ...report(),
      by_collection: [
        { ...some(3, 1200), collection_id: SHARED_COLLECTION_ID, collection_name: 'Shared' },
        { ...some(2, 800), collection_id: null, collection_name: null },
      ],
    }));
    renderInSession(<UsagePage />, testSession({ chat: { GetUsage } }));
    const table = await screen.findByRole('table', { name: /资料集/ });
    expect(within(table).getByRole('rowheader', { name: '公共资料集' })).toBeTruthy();
    expect(table.textContent).not.toContain('Shared');
  });
});

describe('everyone’s usage', () => {
  beforeEach(() => setLocale('en'));

  const overview: UsageOverview = {
    from: '2026-11-01',
    to: '2026-11-30',
    totals: some(5, 2000),
    days,
    by_user: [{ ...some(5, 2000), user_id: crypto.randomUUID(), username: 'alice' }],
    by_collection: [{ ...some(5, 2000), collection_id: null, collection_name: null }],
  };

  it('lists per user and per collection for a super admin', async () => {
    const GetUsageAll = vi.fn(async () => overview);
    renderInSession(<UsageAdminPage />, testSession({ chat: { GetUsageAll } }));
    const users = await screen.findByRole('table', { name: 'Per user (1)' });
    expect(within(users).getByRole('rowheader', { name: 'alice' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Per collection (1)' }).textContent).toContain(
      'Several or none',
    );
  });

  it('is not offered to a user, and asks nothing of the service', () => {
    const GetUsageAll = vi.fn(async () => overview);
    renderInSession(<UsageAdminPage />, testSession({ chat: { GetUsageAll } }, { role: 'USER' }));
    expect(screen.getByText('Only super administrators see this page.')).toBeTruthy();
    expect(GetUsageAll).not.toHaveBeenCalled();
  });
});

describe('the limits form', () => {
  beforeEach(() => setLocale('en'));

  const limits = {
    user_daily_tokens: null,
    user_daily_questions: 100,
    collection_max_bytes: 50 * 1024 * 1024,
    collection_max_files: null,
    user_max_bytes: null as number | null,
    audit_questions: true,
    audit_retention_days: 1095,
  };

  it('turns boxes into limits: empty is none, storage in MB, anything else refused', () => {
    expect(limitText(limits, 'collection_max_bytes')).toBe('50');
    expect(limitText(limits, 'user_daily_tokens')).toBe('');
    expect(limitValue('', 'user_daily_tokens')).toBeNull();
    expect(limitValue('2.5', 'collection_max_bytes')).toBe(2.5 * 1024 * 1024);
    expect(limitValue('0', 'user_daily_questions')).toBeUndefined();
    expect(limitValue('1.5', 'user_daily_questions')).toBeUndefined();
    expect(limitValue('-3', 'collection_max_bytes')).toBeUndefined();
    expect(limitText({ ...limits, user_max_bytes: 2 * 1024 * 1024 * 1024 }, 'user_max_bytes')).toBe(
      '2048',
    );
    expect(limitValue('0.5', 'user_max_bytes')).toBe(512 * 1024);
  });

  it('saves what was entered, and says why a box is refused without asking the service', async () => {
    const GetLimits = vi.fn(async () => limits);
    const PutLimits = vi.fn(async ({ body }: { body: typeof limits }) => body);
    renderInSession(<LimitsPage />, testSession({ chat: { GetLimits, PutLimits } }));
    const questions = await screen.findByLabelText('Questions per user per day');
    expect((questions as HTMLInputElement).value).toBe('100');

    fireEvent.input(questions, { target: { value: 'many' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(
      await screen.findByText(
        'Questions per user per day: a whole number of at least 1, or empty.',
      ),
    ).toBeTruthy();
    expect(PutLimits).not.toHaveBeenCalled();

    fireEvent.input(questions, { target: { value: '' } });
    fireEvent.input(screen.getByLabelText('Tokens per user per day'), {
      target: { value: '50000' },
    });
    fireEvent.input(screen.getByLabelText('Storage per user, all collections (MB)'), {
      target: { value: '500' },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: /Keep each question/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(PutLimits).toHaveBeenCalledTimes(1));
    expect(PutLimits.mock.calls[0]![0].body).toEqual({
      ...limits,
      user_daily_questions: null,
      user_daily_tokens: 50000,
      user_max_bytes: 500 * 1024 * 1024,
      audit_questions: false,
    });
    expect(await screen.findByText('Limits saved.')).toBeTruthy();
  });

  it('shows the service’s refusal in the page’s words', async () => {
    const GetLimits = vi.fn(async () => limits);
    const PutLimits = vi.fn(async () => {
      throw refusal(400, 'validation_failed');
    });
    renderInSession(<LimitsPage />, testSession({ chat: { GetLimits, PutLimits } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText(/The limits were not saved/)).toBeTruthy();
  });
});
