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
