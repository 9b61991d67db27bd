import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatSource } from '../api/services';
import { setLocale } from '../i18n/locale';
import { renderInSession, testSession } from '../testing/session';
import { Turn } from './turn';
import { createTurn } from './turn-model';

const hooks = () => ({ announce: vi.fn(), atEnd: () => false, toEnd: vi.fn() });

const source = (file_name: string, page: number): ChatSource =>
  ({
    file_id: crypto.randomUUID(),
    file_name,
    page,
    similarity: 0.8,
    collection_id: null,
    collection_name: null,
  }) as unknown as ChatSource;

describe('a turn of the conversation', () => {
  beforeEach(() => setLocale('en'));

  it('renders a streamed answer as Markdown, lists its sources, and ends with feedback', async () => {
    const turn = createTurn('What is due?', [], hooks());
    renderInSession(
      <Turn turn={turn} announce={vi.fn()} />,
      testSession({ chat: { PutMessageFeedback: async () => ({ feedback: null }) } }),
    );
    const article = screen.getByRole('article');
    expect(article.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByText('Searching the knowledge base…')).toBeTruthy();

    turn.identify('33333333-3333-4333-8333-333333333333');
    turn.message({ content: '**Rent** is due', type: 'text' } as never);
    turn.message({ content: ' on the *first*.', type: 'text' } as never);
    turn.setSources([source('lease.pdf', 2), { ...source('rules.pdf', 5), text_source: 'ocr' }]);
    turn.finish();

    await waitFor(() =>
      expect(article.querySelector('.markdown strong')?.textContent).toBe('Rent'),
    );
    expect(article.querySelector('.markdown em')?.textContent).toBe('first');
    expect(article.getAttribute('aria-busy')).toBe('false');
    const rows = within(article.querySelector('.sources') as HTMLElement).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('a')?.textContent)).toEqual([
      'lease.pdf',
      'rules.pdf',
    ]);
    // A page read by OCR says so, and that it is to be checked against the original.
    expect(rows.map((row) => row.querySelector('.source-ocr')?.getAttribute('title'))).toEqual([
      undefined,
      'Text read by OCR from a scanned page: check it against the original.',
    ]);
    expect(screen.getByRole('button', { name: 'Helpful' })).toBeTruthy();
  });

  it('shows an error-typed message as a refusal in the page’s words, with the reason', async () => {
    const turn = createTurn('Who won?', [], hooks());
    renderInSession(<Turn turn={turn} announce={vi.fn()} />);
    turn.message({ content: 'no knowledge', type: 'error', code: 'no_relevant_context' } as never);
    turn.explain({ candidates: [], threshold: 0.5 } as never);
    turn.finish();

    const answer = screen.getByRole('article').querySelector('.answer') as HTMLElement;
    await waitFor(() => expect(answer.dataset.state).toBe('refused'));
    const notice = answer.querySelector('.answer-notice.refusal') as HTMLElement;
    expect(notice.textContent).toContain('No answer.');
    expect(notice.querySelector('.refusal-reason')?.textContent).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Helpful' })).toBeNull();
  });

  it('says an answer was stopped, keeping what arrived', async () => {
    const turn = createTurn('Long one', ['plan.pdf'], hooks());
    renderInSession(<Turn turn={turn} announce={vi.fn()} />);
    expect(screen.getByText(/plan\.pdf/)).toBeTruthy();
    turn.message({ content: 'Partial', type: 'text' } as never);
    turn.stopped();
    const answer = screen.getByRole('article').querySelector('.answer') as HTMLElement;
    await waitFor(() =>
      expect(answer.querySelector('.markdown')?.textContent?.trim()).toBe('Partial'),
    );
    expect(answer.querySelector('.answer-notice.stopped')?.textContent).toMatch(/Stopped/);
  });
});
