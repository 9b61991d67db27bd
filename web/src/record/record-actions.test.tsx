import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Conversation } from '../api/services';
import { setLocale } from '../i18n/locale';
import { renderInSession, testSession } from '../testing/session';
import { RecordActions } from './record-actions';

const conversation: Conversation = {
  id: '44444444-4444-4444-8444-444444444444',
  title: 'Annual leave',
  file_id: null,
  collection_id: null,
  created_at: '2026-11-26T06:44:07.000Z',
  updated_at: '2026-11-26T06:44:07.000Z',
};

const RECORD = [
  '# Annual leave',
  '',
  '## Turn 1',
  '',
  '> How many days?',
  '',
  '## Turn 2',
  '',
  '```text',
  'After ten years of service: 25 working days.',
  '```',
  '',
].join('\n');

function exporting() {
  const calls: unknown[] = [];
  const session = testSession({
    chat: {
      GetConversationExport: async (params: unknown) => {
        calls.push(params);
        return {
          body: new Response(RECORD).body,
          contentType: 'text/markdown; charset=utf-8',
          filename: 'Annual leave.md',
          size: undefined,
        };
      },
    },
  });
  return { session, calls };
}

describe('the record buttons of a conversation', () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => {
    vi.restoreAllMocks();
    document.querySelector('.print-record')?.remove();
  });

  it('are hidden while no conversation is open', () => {
    renderInSession(<RecordActions conversation={undefined} />);
    expect(screen.queryByRole('button', { name: /Markdown/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /PDF/ })).toBeNull();
  });

  it('Export Markdown saves the service’s record under the name it gives', async () => {
    const { session, calls } = exporting();
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:record';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: { download: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ download: this.download, href: this.href });
    });
    renderInSession(<RecordActions conversation={conversation} />, session);
    fireEvent.click(screen.getByRole('button', { name: 'Export Markdown: “Annual leave”' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    // The record's times are written in the reader's time zone (it names it).
    expect(calls).toEqual([
      {
        id: conversation.id,
        format: 'markdown',
        time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    ]);
    expect(clicked[0]).toEqual({ download: 'Annual leave.md', href: 'blob:record' });
    expect(await created[0]!.text()).toBe(RECORD);
  });

  it('Save as PDF prints the same record, one turn per page, and takes it away after', async () => {
    const { session } = exporting();
    let printed: { turns: string[]; passage: string | undefined; printing: boolean } | undefined;
    window.print = vi.fn(() => {
      const sheet = document.querySelector('.print-record');
      printed = {
        turns: [...(sheet?.querySelectorAll('h4') ?? [])].map((h) => h.textContent ?? ''),
        passage: sheet?.querySelector('pre')?.textContent,
        printing: document.body.classList.contains('printing-record'),
      };
    });
    renderInSession(<RecordActions conversation={conversation} />, session);
    fireEvent.click(screen.getByRole('button', { name: 'Save as PDF: “Annual leave”' }));
    await waitFor(() => expect(window.print).toHaveBeenCalledTimes(1));
    expect(printed).toEqual({
      turns: ['Turn 1', 'Turn 2'],
      passage: 'After ten years of service: 25 working days.\n',
      printing: true,
    });
    window.dispatchEvent(new Event('afterprint'));
    expect(document.querySelector('.print-record')).toBeNull();
    expect(document.body.classList.contains('printing-record')).toBe(false);
  });

  it('speak Chinese', () => {
    setLocale('zh');
    renderInSession(<RecordActions conversation={conversation} />);
    expect(screen.getByRole('button', { name: '导出 Markdown：“Annual leave”' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '保存为 PDF：“Annual leave”' }).textContent).toBe(
      '保存为 PDF',
    );
  });
});
