import { screen, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ChatSource } from '../api/services';
import { setLocale } from '../i18n/locale';
import { renderInSession } from '../testing/session';
import { Sources } from './sources';

const source = (over: Partial<ChatSource>): ChatSource =>
  ({
    file_id: crypto.randomUUID(),
    file_name: 'policy.pdf',
    page: 2,
    section: null,
    similarity: 0.8,
    collection_id: null,
    collection_name: null,
    chunk_id: 7,
    citation: 1,
    ...over,
  }) as ChatSource;

const places = () =>
  [...document.querySelectorAll('.source-list .source-meta')].map((meta) => meta.textContent);

describe('where a source stands', () => {
  beforeEach(() => setLocale('zh'));

  it('says its chapter and article with the page, when the document has them', () => {
    renderInSession(
      <Sources
        sources={[
          source({ heading_path: '第三章 财政支持 › 第十二条' }),
          source({ page: 5, citation: 2, chunk_id: 8 }),
          source({ section: 'Leave › Entitlement', heading_path: null, citation: 3, chunk_id: 9 }),
          source({
            section: 'Leave › Entitlement',
            heading_path: 'Leave › Entitlement › 1.1',
            citation: 4,
            chunk_id: 10,
          }),
        ]}
      />,
    );
    expect(places()).toEqual([
      '第三章 财政支持 › 第十二条 · 第 2 页',
      '第 5 页',
      '章节“Leave › Entitlement”',
      '章节“Leave › Entitlement › 1.1”',
    ]);
    expect(
      screen.getByRole('link', {
        name: /出处 1：policy\.pdf，第三章 财政支持 › 第十二条 · 第 2 页/,
      }),
    ).toBeTruthy();
  });
});

const repealedBy = (relation: 'repealed_by' | 'replaced_by', doc_number: string | null) => ({
  status: 'repealed' as const,
  relations: [
    {
      id: 3,
      relation,
      file_id: null,
      file_name: 'huiyi-2025.html',
      doc_number,
      title: '四川省省级机关会议费管理办法',
      origin: 'extracted' as const,
    },
  ],
});

describe('whether a source’s document still holds', () => {
  beforeEach(() => setLocale('zh'));

  const rows = () => [...document.querySelectorAll<HTMLElement>('.source-list li')];

  it('marks a document not in force, naming the one that did it, and gives its 文号', async () => {
    renderInSession(
      <Sources
        sources={[
          source({
            file_name: 'huiyi-2023.md',
            doc_number: '川办规〔2023〕4号',
            validity: repealedBy('repealed_by', '川办规〔2025〕6号'),
          }),
          source({
            file_name: 'old.md',
            citation: 2,
            chunk_id: 8,
            validity: repealedBy('replaced_by', null),
          }),
          source({
            file_name: 'rules.md',
            citation: 3,
            chunk_id: 9,
            validity: { status: 'expired', relations: [] },
          }),
          source({
            file_name: 'huiyi-2025.html',
            doc_number: '川办规〔2025〕6号',
            citation: 4,
            chunk_id: 10,
            validity: { status: 'in_force', relations: [] },
          }),
        ]}
      />,
    );
    const [repealed, replaced, expired, inForce] = rows();
    expect(within(repealed!).getByText('川办规〔2023〕4号')).toBeTruthy();
    const badge = within(repealed!).getByText('已废止').closest('.badge')!;
    expect(badge.getAttribute('title')).toBe('已被 川办规〔2025〕6号 废止');
    expect(badge.textContent).toContain('已被 川办规〔2025〕6号 废止');
    // Without a number, the newer document is named by its title.
    const replacedBadge = within(replaced!).getByText('已被替代').closest('.badge')!;
    expect(replacedBadge.getAttribute('title')).toBe('已被 《四川省省级机关会议费管理办法》 替代');
    expect(within(expired!).getByText('已过期')).toBeTruthy();
    expect(inForce!.querySelector('.badge')).toBeNull();
    expect(within(inForce!).getByText('川办规〔2025〕6号')).toBeTruthy();

    setLocale('en');
    const en = await screen.findByText('Repealed');
    expect(en.closest('.badge')!.getAttribute('title')).toBe('Repealed by 川办规〔2025〕6号');
    expect(screen.getByText('Replaced')).toBeTruthy();
  });
});

describe('a stored answer’s source as it stands now', () => {
  beforeEach(() => setLocale('zh'));

  const rows = () => [...document.querySelectorAll<HTMLElement>('.source-list li')];
  const V2 = '44444444-4444-4444-8444-444444444444';

  it('says a newer version, naming it and its date, with a link to open it; deleted since', async () => {
    renderInSession(
      <Sources
        sources={[
          source({
            file_name: 'jiedai-2024.docx',
            now: {
              state: 'superseded',
              superseded_at: '2026-03-02T08:00:00.000Z',
              current: { id: V2, name: 'jiedai-2024-v2.docx', version: 2 },
              validity: { status: 'in_force', relations: [] },
            },
          }),
          source({ file_name: 'draft.md', citation: 2, chunk_id: 8, now: { state: 'deleted' } }),
        ]}
      />,
    );
    const [newer, deleted] = rows();
    const badge = within(newer!).getByText('已有新版本').closest('.badge')!;
    expect(badge.getAttribute('title')).toMatch(
      /^已有新版本：jiedai-2024-v2\.docx（第 2 版，2026.+起）。本回答依据的是所引用的版本。$/,
    );
    const link = within(newer!).getByRole('link', {
      name: '打开当前版本：jiedai-2024-v2.docx',
    });
    expect(link.getAttribute('href')).toBe(`#/doc/${V2}`);
    expect(link.textContent).toMatch(/^当前版本：jiedai-2024-v2\.docx（2026.+）$/);
    // The source itself still opens the version the answer cites.
    expect(within(newer!).getByRole('link', { name: /出处 1：jiedai-2024\.docx/ })).toBeTruthy();
    expect(within(deleted!).getByText('已删除').closest('.badge')!.getAttribute('title')).toBe(
      '该文件在回答之后已被删除。',
    );

    setLocale('en');
    expect(await screen.findByText('Newer version')).toBeTruthy();
    expect(screen.getByText('Deleted since')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the current version: jiedai-2024-v2.docx' }));
  });

  it('does not call an older version made current again a newer one', () => {
    renderInSession(
      <Sources
        sources={[
          source({
            file_name: 'jiedai-2024-v2.docx',
            now: {
              state: 'superseded',
              version: 2,
              superseded_at: '2026-03-02T08:00:00.000Z',
              current: { id: V2, name: 'jiedai-2024.docx', version: 1 },
            },
          }),
        ]}
      />,
    );
    const [row] = rows();
    expect(within(row!).queryByText('已有新版本')).toBeNull();
    const badge = within(row!).getByText('已不是当前版本').closest('.badge')!;
    expect(badge.getAttribute('title')).toBe(
      '已不是当前版本：已恢复较早的版本 jiedai-2024.docx（第 1 版）为当前版本。本回答依据的是所引用的版本。',
    );
    expect(
      within(row!)
        .getByRole('link', { name: '打开当前版本：jiedai-2024.docx' })
        .getAttribute('href'),
    ).toBe(`#/doc/${V2}`);
  });

  it('shows the validity as it is now when it differs from the answer’s', () => {
    renderInSession(
      <Sources
        sources={[
          source({
            validity: { status: 'in_force', relations: [] },
            now: { state: 'current', validity: repealedBy('repealed_by', '川办规〔2026〕1号') },
          }),
        ]}
      />,
    );
    const badge = screen.getByText('已废止').closest('.badge')!;
    expect(badge.getAttribute('title')).toBe('已被 川办规〔2026〕1号 废止');
  });

  it('adds nothing when all is as it was, or when it is not known', () => {
    renderInSession(
      <Sources
        sources={[
          source({ now: { state: 'current', validity: { status: 'in_force', relations: [] } } }),
          source({ citation: 2, chunk_id: 8 }),
        ]}
      />,
    );
    expect(document.querySelector('.source-list .badge')).toBeNull();
    expect(document.querySelector('.source-current')).toBeNull();
  });
});
