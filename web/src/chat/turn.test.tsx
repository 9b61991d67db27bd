import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatSource } from '../api/services';
import { setLocale } from '../i18n/locale';
import { renderInSession, testSession } from '../testing/session';
import { Turn } from './turn';
import { createTurn } from './turn-model';
import { modelInUse } from '../main/model-status';

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

  it('lists the cited sources in citation order, the rest folded, and links [n] to the viewer', async () => {
    const turn = createTurn('What is due?', [], hooks());
    renderInSession(<Turn turn={turn} announce={vi.fn()} />);
    const [lease, rules, fees] = [
      source('lease.pdf', 2),
      source('rules.pdf', 5),
      source('fees.pdf', 1),
    ];
    turn.message({
      content: 'Rent is due on the first [2]. Late fees apply [1].',
      type: 'content',
    } as never);
    turn.setSources([
      { ...lease!, chunk_id: 11, citation: 2 },
      { ...rules!, chunk_id: 12, citation: 1 },
      { ...fees!, chunk_id: 13, citation: null },
      // The same passage twice is one row.
      { ...lease!, chunk_id: 11, citation: null },
    ]);
    turn.done({ request_id: 'r', mode: 'retrieval', language: 'en' });
    turn.finish();

    const article = screen.getByRole('article');
    await waitFor(() => expect(article.getAttribute('aria-busy')).toBe('false'));
    const sources = article.querySelector('.sources') as HTMLElement;
    const cited = [...sources.querySelectorAll(':scope > .source-list > li')];
    expect(cited.map((row) => row.querySelector('.source-link')?.textContent)).toEqual([
      'rules.pdf',
      'lease.pdf',
    ]);
    expect(cited[0]!.querySelector('a')?.getAttribute('href')).toBe(
      `#/doc/${rules!.file_id}?page=5&chunk=12`,
    );
    const folded = sources.querySelector('details.also-retrieved') as HTMLDetailsElement;
    expect(folded.open).toBe(false);
    expect(folded.querySelector('summary')?.textContent).toBe('Also retrieved, not cited (1)');
    expect(folded.querySelector('.source-link')?.textContent).toBe('fees.pdf');
    // Scores sit behind the details, closed.
    const details = sources.querySelector('details.source-details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelectorAll('tbody tr')).toHaveLength(4);

    const markers = [...article.querySelectorAll<HTMLAnchorElement>('.markdown a.citation')];
    expect(markers.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['[2]', `#/doc/${rules!.file_id}?page=5&chunk=12`],
      ['[1]', `#/doc/${lease!.file_id}?page=2&chunk=11`],
    ]);
    expect(markers[0]!.title).toBe('Source 2: rules.pdf, page 5');
  });

  it('links a chosen file’s page markers to their pages', async () => {
    const turn = createTurn('What is due?', [], hooks());
    renderInSession(<Turn turn={turn} announce={vi.fn()} />);
    const lease = { ...source('lease.pdf', 3), similarity: null, citation: 1 };
    turn.message({
      content: 'Due on the first [lease.pdf p. 3], see [other.pdf p. 9].',
      type: 'content',
    } as never);
    turn.setSources([lease]);
    turn.done({ request_id: 'r', mode: 'full_text', language: 'en' });
    turn.finish();
    const article = screen.getByRole('article');
    await waitFor(() => expect(article.querySelectorAll('a.citation')).toHaveLength(2));
    const [known, unknown] = [...article.querySelectorAll<HTMLAnchorElement>('a.citation')];
    expect(known!.getAttribute('href')).toBe(`#/doc/${lease.file_id}?page=3`);
    // A marker of no source given stays text-like: no address to follow.
    expect(unknown!.hasAttribute('href')).toBe(false);
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
    expect(notice.querySelector('p')!.textContent).toBe('no knowledge');
    expect(notice.querySelector('.refusal-reason')?.textContent).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Helpful' })).toBeNull();
  });

  it('says once that a refusal gives no answer, in either language', async () => {
    const turn = createTurn('谁赢了？', [], hooks());
    renderInSession(<Turn turn={turn} announce={vi.fn()} />);
    turn.message({ content: '无法回答', type: 'error', code: 'no_relevant_knowledge' } as never);
    turn.finish();
    const answer = screen.getByRole('article').querySelector('.answer') as HTMLElement;
    const lead = () => answer.querySelector('.answer-notice.refusal p')?.textContent;
    await waitFor(() =>
      expect(lead()).toBe('Sorry, no relevant information was found, so no answer can be given.'),
    );
    setLocale('zh');
    await waitFor(() => expect(lead()).toBe('非常抱歉，未能检索到相关信息，无法回答。'));
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

  it('says the offline stand-in wrote an answer only under what it wrote', async () => {
    modelInUse.value = { offline: true } as never;
    try {
      const turns = [
        createTurn('a', [], hooks()),
        createTurn('b', [], hooks()),
        createTurn('c', [], hooks()),
      ];
      renderInSession(
        <>
          {turns.map((turn) => (
            <Turn key={turn.key} turn={turn} announce={vi.fn()} />
          ))}
        </>,
      );
      const [written, refused, official] = turns;
      written!.message({ content: 'Rent is due.', type: 'content' } as never);
      written!.finish();
      refused!.message({ content: 'no', type: 'error', code: 'no_relevant_knowledge' } as never);
      refused!.finish();
      official!.message({ content: 'As written.', type: 'content' } as never);
      official!.done({ request_id: 'r', mode: 'official', language: 'en' });
      official!.finish();
      const articles = screen.getAllByRole('article');
      await waitFor(() =>
        expect(articles[0]!.querySelector('.markdown')?.textContent).toContain('Rent'),
      );
      await waitFor(() =>
        expect(articles[2]!.querySelector('.markdown')?.textContent).toContain('As written'),
      );
      expect(articles.map((a) => a.querySelector('.offline-note') !== null)).toEqual([
        true,
        false,
        false,
      ]);
    } finally {
      modelInUse.value = undefined;
    }
  });
});
