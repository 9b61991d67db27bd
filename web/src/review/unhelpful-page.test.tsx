import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../i18n/locale';
import { refusal, renderInSession, testSession } from '../testing/session';
import type { Reviewed } from './review-item';
import { UnhelpfulPage } from './unhelpful-page';

const FILE = '0b9f4c1e-7d2a-4e5b-9c3d-2a1b0c9d8e7f';

const REVIEWED: Reviewed = {
  id: 'm1',
  conversation_id: 'c1',
  username: 'bo',
  question: 'What is the refund rule?',
  answer: 'Refunds take **14 days**.',
  status: 'complete',
  code: null,
  mode: 'retrieval',
  sources: [
    { file_id: FILE, file_name: 'rules.pdf', page: 3, similarity: 0.71, chunk_id: 41, citation: 1 },
    {
      file_id: FILE,
      file_name: 'rules.pdf',
      page: 9,
      similarity: 0.55,
      chunk_id: 42,
      citation: null,
    },
  ],
  feedback: {
    rating: 'unhelpful',
    comment: 'It left out the fee.',
    at: '2026-05-06T07:08:09.000Z',
  },
  created_at: '2026-05-06T07:00:00.000Z',
} as unknown as Reviewed;

describe('the unhelpful answers page', () => {
  beforeEach(() => setLocale('en'));

  it('shows each answer with its question, the answer as given, the comment, who and when', async () => {
    const session = testSession({
      chat: {
        GetUnhelpfulAnswers: async () => ({ items: [REVIEWED], total: 1, page: 1, size: 20 }),
      },
    });
    renderInSession(<UnhelpfulPage />, session);
    expect(screen.getByRole('heading', { level: 1, name: 'Unhelpful answers' })).toBeTruthy();
    const item = (await screen.findByText('What is the refund rule?')).closest('li')!;
    expect(screen.getByText('1 answer')).toBeTruthy();
    expect(within(item).getByText('14 days').tagName).toBe('STRONG');
    expect(within(item).getByText('It left out the fee.')).toBeTruthy();
    // The sources as the service told them, shown open: scores, citations, passages.
    const rows = within(item).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '1rules.pdf · page 30.711st41',
      '2rules.pdf · page 90.55—42',
    ]);
    expect(within(rows[0]!).getByRole('link', { name: 'rules.pdf' }).getAttribute('href')).toBe(
      `#/doc/${FILE}?page=3&chunk=41`,
    );
    expect(within(item).getByText('bo')).toBeTruthy();
    expect(within(item).getByText(/2026/).getAttribute('datetime')).toBe(REVIEWED.feedback!.at);
  });

  it('says so when there is nothing to review, and when the list cannot be loaded', async () => {
    renderInSession(
      <UnhelpfulPage />,
      testSession({
        chat: { GetUnhelpfulAnswers: async () => ({ items: [], total: 0, page: 1, size: 20 }) },
      }),
    );
    expect(await screen.findByText('No answer has been marked as not helpful.')).toBeTruthy();
  });

  it('tells a user who is not a super admin that they cannot review', async () => {
    renderInSession(
      <UnhelpfulPage />,
      testSession({
        chat: { GetUnhelpfulAnswers: () => Promise.reject(refusal(403, 'permission_denied')) },
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Access denied' })).toBeTruthy();
    expect(screen.getByText('Only super admins can review unhelpful answers.')).toBeTruthy();
  });

  it('shows why the list could not be loaded, in the reader’s language', async () => {
    renderInSession(
      <UnhelpfulPage />,
      testSession({
        chat: { GetUnhelpfulAnswers: () => Promise.reject(refusal(503, 'database_unavailable')) },
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The unhelpful answers could not be loaded: The database is unavailable right now. Try again later.',
    );
  });
  it('resolves an item, shows resolved ones on request, and a refusal’s closest passages', async () => {
    const refused: Reviewed = {
      ...REVIEWED,
      id: 'm2',
      question: 'How is parking paid?',
      answer: 'Nothing relevant was found.',
      status: 'refused',
      code: 'no_relevant_knowledge',
      sources: [],
      closest_passages: [
        { file_id: FILE, file_name: 'rules.pdf', page: 5, similarity: 0.44, chunk_id: 43 },
      ],
    } as unknown as Reviewed;
    const resolvedAt = '2026-05-07T08:00:00.000Z';
    const GetUnhelpfulAnswers = vi.fn(async (params: { resolved?: boolean }) => ({
      items: params.resolved ? [{ ...refused, resolved_at: resolvedAt }] : [refused],
      total: 1,
      page: 1,
      size: 20,
    }));
    const PutUnhelpfulResolved = vi.fn(async () => undefined);
    renderInSession(
      <UnhelpfulPage />,
      testSession({ chat: { GetUnhelpfulAnswers, PutUnhelpfulResolved } }),
    );
    const item = (await screen.findByText('How is parking paid?')).closest('li')!;
    expect(within(item).getByText('Closest passages (refused)')).toBeTruthy();
    expect(within(item).getByRole('link', { name: 'rules.pdf' }).getAttribute('href')).toBe(
      `#/doc/${FILE}?page=5&chunk=43`,
    );
    expect(within(item).getByText(/bo’s turn, shown in full/)).toBeTruthy();
    fireEvent.click(within(item).getByRole('button', { name: 'Mark as resolved' }));
    await waitFor(() =>
      expect(PutUnhelpfulResolved).toHaveBeenCalledWith(
        { body: { message_id: 'm2', resolved: true } },
        expect.anything(),
      ),
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show resolved' }));
    await waitFor(() =>
      expect(GetUnhelpfulAnswers).toHaveBeenLastCalledWith(
        { page: 1, size: 20, resolved: true },
        expect.anything(),
      ),
    );
    const again = (await screen.findByText(/^Resolved /)).closest('li')!;
    expect(within(again).getByRole('button', { name: 'Reopen' })).toBeTruthy();
  });
});
