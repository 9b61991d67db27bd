import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FilePage, KnowledgeFile } from '../api/services';
import { Session } from '../context';
import { setLocale } from '../i18n/locale';
import { renderInSession, testSession } from '../testing/session';
import { DocumentViewer } from './document-viewer';

// The viewer says what the opened document is (文号, title) and whether it still holds.

const ID = '33333333-3333-4333-8333-333333333333';

const page = (at: number): FilePage => ({
  file_id: ID,
  file_name: 'huiyi-2023.md',
  format: 'markdown',
  page: at,
  pages: 5,
  section: null,
  text: `第${at}节 会议费开支实行综合定额控制。`,
  text_source: null,
  page_width: null,
  page_height: null,
});

const repealed = {
  id: ID,
  name: 'huiyi-2023.md',
  metadata: {
    title: '四川省省级机关会议费管理办法',
    doc_number: '川办规〔2023〕4号',
    issuers: [],
    issued_on: null,
    effective_on: null,
    expires_on: null,
    doc_type: null,
    origin: {},
  },
  validity: {
    status: 'repealed',
    relations: [
      {
        id: 1,
        relation: 'repealed_by',
        file_id: null,
        file_name: 'huiyi-2025.html',
        doc_number: '川办规〔2025〕6号',
        title: null,
        origin: 'extracted',
      },
    ],
  },
} as unknown as KnowledgeFile;

function open(GetList: (...args: never[]) => unknown, at = 1) {
  const GetPage = vi.fn(async ({ page: n }: { page: number }) => page(n));
  const session = testSession({ knowledge: { GetPage, GetList } });
  const view = renderInSession(
    <DocumentViewer route={{ page: 'doc', id: ID, at }} onClose={() => undefined} />,
    session,
  );
  return { ...view, session, GetPage };
}

describe('what the viewed document is, and whether it holds', () => {
  beforeEach(() => setLocale('zh'));

  it('gives its 文号 and title, and notes once per file that it was repealed and by which', async () => {
    const GetList = vi.fn(async () => [repealed]);
    const { rerender, session, GetPage } = open(GetList);
    const note = await screen.findByRole('note');
    expect(note.textContent).toBe('本文件已被 川办规〔2025〕6号 废止。请以现行有效的文件为准。');
    expect(screen.getByText('川办规〔2023〕4号 《四川省省级机关会议费管理办法》')).toBeTruthy();
    // A note read with the page, not an alert announced on every open.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(GetList).toHaveBeenCalledWith({ file_id: ID }, expect.anything());

    // Another page of the same file asks nothing more of the list.
    rerender(
      <Session.Provider value={session}>
        <DocumentViewer route={{ page: 'doc', id: ID, at: 2 }} onClose={() => undefined} />
      </Session.Provider>,
    );
    await waitFor(() => expect(GetPage).toHaveBeenCalledTimes(2));
    expect(await screen.findByText('第2节 会议费开支实行综合定额控制。')).toBeTruthy();
    expect(GetList).toHaveBeenCalledTimes(1);

    setLocale('en');
    expect(
      await screen.findByText(
        'This document was repealed by 川办规〔2025〕6号. Check what is in force before acting on it.',
      ),
    ).toBeTruthy();
  });

  it("does not double the 书名号 of a title that comes with them, its own or the newer one's", async () => {
    const GetList = vi.fn(async () => [
      {
        ...repealed,
        metadata: { ...repealed.metadata, title: '《四川省省级机关会议费管理办法》' },
        validity: {
          status: 'repealed',
          relations: [
            {
              ...repealed.validity!.relations[0]!,
              relation: 'replaced_by',
              doc_number: null,
              title: '《四川省省级机关会议费管理办法（2025年修订）》',
            },
          ],
        },
      },
    ]);
    open(GetList);
    const note = await screen.findByRole('note');
    expect(note.textContent).toBe(
      '本文件已被 《四川省省级机关会议费管理办法（2025年修订）》 替代。请以现行有效的文件为准。',
    );
    expect(screen.getByText('川办规〔2023〕4号 《四川省省级机关会议费管理办法》')).toBeTruthy();
  });

  it('says nothing of a document in force', async () => {
    const GetList = vi.fn(async () => [
      { ...repealed, validity: { status: 'in_force', relations: [] } },
    ]);
    open(GetList);
    expect(await screen.findByText(/川办规〔2023〕4号/)).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('still shows the page when the file’s details cannot be had', async () => {
    const GetList = vi.fn(async () => {
      throw new Error('offline');
    });
    const { session } = open(GetList);
    expect(await screen.findByText('第1节 会议费开支实行综合定额控制。')).toBeTruthy();
    await waitFor(() => expect(GetList).toHaveBeenCalled());
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(session.failures).toEqual([]);
  });
});

describe('an old version opened', () => {
  beforeEach(() => setLocale('zh'));

  it('says it is not the current version, with a link to the current one', async () => {
    const V2 = '44444444-4444-4444-8444-444444444444';
    // The list has current versions only: an old one is not in it.
    const GetList = vi.fn(async () => []);
    const PostFileStates = vi.fn(async () => [
      {
        id: ID,
        state: 'superseded',
        superseded_at: '2026-03-02T08:00:00.000Z',
        current: { id: V2, name: 'huiyi-2023-v2.md', version: 2 },
        validity: { status: 'in_force', relations: [] },
      },
    ]);
    const GetPage = vi.fn(async ({ page: n }: { page: number }) => page(n));
    renderInSession(
      <DocumentViewer route={{ page: 'doc', id: ID, at: 1 }} onClose={() => undefined} />,
      testSession({ knowledge: { GetPage, GetList, PostFileStates } }),
    );
    const note = await screen.findByRole('note');
    expect(note.textContent).toBe(
      '这不是该文件的当前版本。当前版本为 huiyi-2023-v2.md（第 2 版）。 打开当前版本',
    );
    expect(within(note).getByRole('link', { name: '打开当前版本' }).getAttribute('href')).toBe(
      `#/doc/${V2}`,
    );
    expect(PostFileStates).toHaveBeenCalledWith(
      { body: { files: [{ id: ID }] } },
      expect.anything(),
    );
  });

  it('asks nothing more of a current file the list has', async () => {
    const PostFileStates = vi.fn(async () => []);
    const GetPage = vi.fn(async ({ page: n }: { page: number }) => page(n));
    renderInSession(
      <DocumentViewer route={{ page: 'doc', id: ID, at: 1 }} onClose={() => undefined} />,
      testSession({ knowledge: { GetPage, GetList: async () => [repealed], PostFileStates } }),
    );
    expect((await screen.findByRole('note')).textContent).toContain('废止');
    expect(PostFileStates).not.toHaveBeenCalled();
  });
});
