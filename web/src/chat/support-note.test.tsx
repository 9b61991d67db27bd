import { screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMessage } from '../api/services';
import { setLocale } from '../i18n/locale';
import { renderInSession } from '../testing/session';
import { Turn } from './turn';
import { createTurn } from './turn-model';

const hooks = () => ({ announce: vi.fn(), atEnd: () => false, toEnd: vi.fn() });

const ANSWER = '1. Rent is **due** on the first [1].\n2. Late fees are 60 euros a day [2].';
const SUPPORT = [
  { sentence_index: 0, text: 'Rent is due on the first.', cited: [1], supported: true },
  {
    sentence_index: 1,
    text: 'Late fees are 60 euros a day.',
    cited: [2],
    supported: false,
    missing: ['60'],
  },
];

function answered(support: typeof SUPPORT | undefined) {
  const turn = createTurn('What is due?', [], hooks());
  renderInSession(<Turn turn={turn} announce={vi.fn()} />);
  turn.message({ content: ANSWER, type: 'content' } as never);
  turn.done({ request_id: 'r', mode: 'retrieval', language: 'en', support } as never);
  turn.finish();
  return screen.getByRole('article');
}

describe('the note on sentences not found in the sources', () => {
  beforeEach(() => setLocale('en'));

  it('says how many, quotes each with its missing figures, and marks it in the answer', async () => {
    const article = answered(SUPPORT);
    await waitFor(() => expect(article.querySelector('mark.unsupported-sentence')).toBeTruthy());
    const note = article.querySelector('.support-note') as HTMLElement;
    expect(note.hidden).toBe(false);
    expect(note.querySelector('.support-title')?.textContent).toBe(
      '1 sentence not found in the sources',
    );
    expect(note.querySelector('q')?.textContent).toBe('Late fees are 60 euros a day.');
    expect(note.querySelector('.support-missing')?.textContent).toBe('Not in the sources: 60');
    // The marked sentence (around its citation link, which stays a link) and its words for
    // screen readers after it.
    const marks = [...article.querySelectorAll('.markdown mark.unsupported-sentence')];
    expect(marks.map((mark) => mark.textContent).join('|')).toBe('Late fees are 60 euros a day |.');
    expect(article.querySelector('.markdown a.citation')?.closest('mark')).toBeNull();
    expect(article.querySelector('.markdown .unsupported-sentence-label')?.textContent).toBe(
      ' (not found in the sources)',
    );
    // The supported sentence stays as it was.
    expect(article.querySelector('.markdown strong')?.closest('mark')).toBeNull();
  });

  it('says nothing when every sentence was found, or the answer was not checked', async () => {
    for (const support of [SUPPORT.slice(0, 1), undefined]) {
      const article = answered(support);
      await waitFor(() => expect(article.querySelector('.markdown strong')).toBeTruthy());
      expect((article.querySelector('.support-note') as HTMLElement).hidden).toBe(true);
      expect(article.querySelector('mark')).toBeNull();
      article.remove();
    }
  });

  it('speaks Chinese, and shows a stored turn’s support (a complete one only)', async () => {
    setLocale('zh');
    const turn = createTurn('租金何时缴纳？', [], hooks());
    renderInSession(<Turn turn={turn} announce={vi.fn()} />);
    const stored = {
      id: '33333333-3333-4333-8333-333333333333',
      question: '租金何时缴纳？',
      retrieval_question: '租金何时缴纳？',
      answer: '1. 滞纳金为每天60元[1]。',
      status: 'complete',
      code: null,
      sources: [],
      mode: 'retrieval',
      language: 'zh',
      usage: null,
      feedback: null,
      created_at: '2026-11-26T00:00:00Z',
      support: [
        {
          sentence_index: 0,
          text: '滞纳金为每天60元。',
          cited: [1],
          supported: false,
          missing: ['60元'],
        },
      ],
      model: 'm',
    } satisfies ConversationMessage;
    turn.restore(stored);
    const article = screen.getByRole('article');
    await waitFor(() => expect(article.querySelector('mark.unsupported-sentence')).toBeTruthy());
    expect(article.querySelector('.support-title')?.textContent).toBe('1 句未在来源中找到');
    expect(article.querySelector('.support-missing')?.textContent).toBe('来源中没有：60元');

    const cut = createTurn('租金何时缴纳？', [], hooks());
    cut.restore({ ...stored, status: 'incomplete' });
    expect(cut.support.value).toBeNull();
  });
});
