import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection } from '../api/services';
import { setLocale } from '../i18n/locale';
import { refusal, renderInSession, testSession } from '../testing/session';
import { SearchIndex, type EmbeddingStatus, type ReindexJob } from './search-index';

const ID = '22222222-2222-4222-8222-222222222222';
const MODEL = 'text-embedding-3-small@1536';
const collection = (role: Collection['role']): Collection =>
  ({ id: ID, name: 'Library', description: '', role, shared: false, files: 3 }) as Collection;
const status = (stale: number, job: ReindexJob | null = null): EmbeddingStatus => ({
  collection_id: ID,
  configured: MODEL,
  models: [
    { model: MODEL, chunks: 10 },
    ...(stale > 0 ? [{ model: 'old-model@1536', chunks: stale }] : []),
  ],
  stale_chunks: stale,
  job,
});
const job = (state: ReindexJob['status'], done: number): ReindexJob => ({
  id: '33333333-3333-4333-8333-333333333333',
  collection_id: ID,
  model: MODEL,
  status: state,
  files: 2,
  files_done: done === 40 ? 2 : 1,
  chunks: 40,
  chunks_done: done,
  error: state === 'failed' ? { code: 'model_unavailable', message: 'The model is away.' } : null,
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:01.000Z',
});

describe('a collection’s search index', () => {
  beforeEach(() => setLocale('en'));

  it('tells an owner of passages of another model, re-indexes them and shows the progress', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const statuses = [status(40), status(0, job('done', 40))];
      const polls = [job('running', 20), job('done', 40)];
      const start = vi.fn(async () => job('running', 0));
      renderInSession(
        <SearchIndex collection={collection('owner')} />,
        testSession({
          knowledge: {
            GetEmbeddingStatus: async () => statuses.shift()!,
            PostReindex: start,
            GetReindex: async () => polls.shift()!,
          },
        }),
      );
      expect(
        await screen.findByText(
          '40 passages were indexed by another embedding model (old-model@1536); they are found by keyword search only until re-indexed.',
        ),
      ).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Re-index' }));
      await waitFor(() =>
        expect(start).toHaveBeenCalledWith({ body: { collection_id: ID } }, expect.anything()),
      );
      const bar = await screen.findByRole('progressbar', { name: 'Re-indexing' });
      expect(bar.getAttribute('aria-valuetext')).toBe('Re-indexing: 0 of 40 passages');
      expect(screen.queryByRole('button', { name: 'Re-index' })).toBeNull();
      await vi.advanceTimersByTimeAsync(1_000);
      await waitFor(() =>
        expect(bar.getAttribute('aria-valuetext')).toBe('Re-indexing: 20 of 40 passages'),
      );
      await vi.advanceTimersByTimeAsync(1_000);
      expect(
        await screen.findByText(
          'The re-index is done: every passage is found by vector search again.',
        ),
      ).toBeTruthy();
      expect(
        screen.getByText(`Every passage is indexed by the configured model (${MODEL}).`),
      ).toBeTruthy();
      expect(screen.queryByRole('progressbar')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives a reader no button, and says so in Chinese', async () => {
    setLocale('zh');
    renderInSession(
      <SearchIndex collection={collection('viewer')} />,
      testSession({ knowledge: { GetEmbeddingStatus: async () => status(5) } }),
    );
    expect(
      await screen.findByText(/有 5 个片段由另一个向量模型（old-model@1536）建立索引/),
    ).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('资料集的所有者可以重新索引。')).toBeTruthy();
  });

  it('says why a re-index stopped, and why one did not start', async () => {
    renderInSession(
      <SearchIndex collection={collection('owner')} />,
      testSession({
        knowledge: {
          GetEmbeddingStatus: async () => status(7, job('failed', 20)),
          PostReindex: () => Promise.reject(refusal(403, 'access_denied', 'Not yours.')),
        },
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^The re-index stopped: The model is away\./,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Re-index' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toMatch(/^The re-index did not start: /),
    );
  });

  it('shows nothing when the status cannot be read', async () => {
    const { container } = renderInSession(
      <SearchIndex collection={collection('owner')} />,
      testSession({
        knowledge: { GetEmbeddingStatus: () => Promise.reject(refusal(404, 'not_found')) },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container.textContent).toBe('');
  });
});
