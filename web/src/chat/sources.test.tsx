import { screen } from '@testing-library/preact';
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
