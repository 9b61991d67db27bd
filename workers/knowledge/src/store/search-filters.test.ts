import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { searchQuery } from './search';
import {
  fileFilterCondition,
  filteredScopeQuery,
  givenFilters,
  normaliseDocNumber,
} from './search-filters';

const dialect = new PgDialect();
const render = (filters: Parameters<typeof fileFilterCondition>[0]) => {
  const condition = fileFilterCondition(filters);
  return condition ? dialect.sqlToQuery(condition) : undefined;
};
const base = {
  mode: 'hybrid' as const,
  top: 10,
  vector: [0.1, 0.2],
  embeddingModel: 'text-embedding-3-small@1536',
  terms: ['补贴'],
};

describe('document filters in SQL', () => {
  it('builds nothing without a filter given', () => {
    expect(render(undefined)).toBeUndefined();
    expect(render({})).toBeUndefined();
    expect(givenFilters({ issuer: undefined })).toBeUndefined();
  });

  it('matches an issuer by containment, as a parameter and not a LIKE pattern', () => {
    const q = render({ issuer: '杭州%' })!;
    expect(q.sql).toBe('exists (select 1 from unnest(f.issuers) i where strpos(i, $1) > 0)');
    expect(q.params).toEqual(['杭州%']);
  });

  it('joins every filter given with and; dates inclusive', () => {
    const q = render({
      doc_type: '办法',
      issued_from: '2024-01-01',
      issued_to: '2024-12-31',
      effective_from: '2024-02-01',
      effective_to: '2025-01-01',
    })!;
    expect(q.sql).toBe(
      'f.doc_type = $1 and f.issued_on >= $2::date and f.issued_on <= $3::date' +
        ' and f.effective_on >= $4::date and f.effective_on <= $5::date',
    );
  });

  it('reads in_force by the one validity rule, both ways', () => {
    const yes = render({ in_force: true })!;
    expect(yes.sql).toContain("then 'repealed'");
    expect(yes.sql).toMatch(/end\) in \(\$\d+, \$\d+\)$/);
    expect(yes.params.slice(-2)).toEqual(['in_force', 'amended']);
    expect(render({ in_force: false })!.sql).toMatch(/end\) not in \(\$\d+, \$\d+\)$/);
  });

  it('normalises a document number’s brackets to 〔〕', () => {
    for (const typed of [
      '川办规[2025]6号',
      '川办规［2025］6号',
      '川办规(2025)6号',
      '川办规 【2025】 6号',
    ]) {
      expect(normaliseDocNumber(typed)).toBe('川办规〔2025〕6号');
    }
    expect(render({ doc_number: '川办规[2025]6号' })!.params).toEqual(['川办规〔2025〕6号']);
  });
});

describe('the search statement with filters', () => {
  it('is the very same statement without filters', () => {
    const plain = dialect.sqlToQuery(searchQuery(base));
    expect(dialect.sqlToQuery(searchQuery({ ...base, filters: {} }))).toEqual(plain);
    expect(dialect.sqlToQuery(searchQuery({ ...base, filters: { in_force: undefined } }))).toEqual(
      plain,
    );
    expect(plain.sql).not.toContain('select f.id from files f');
  });

  it('restricts both lists to the matching files, each array computed once', () => {
    const q = dialect.sqlToQuery(searchQuery({ ...base, filters: { issuer: '杭州' } }));
    const issuer = 'exists (select 1 from unnest(f.issuers) i where strpos(i, $';
    // The keyword function gets the matching files; the vector list excludes the others.
    expect(q.sql).toContain(
      `array(select f.id from files f where f.status = 'ready' and ${issuer}`,
    );
    expect(q.sql).toContain(
      `"chunks"."file_id" <> all(array(select f.id from files f where (${issuer}`,
    );
    expect(q.sql).toMatch(/\) is not true\)\)/);
  });

  it('keeps to the files a request named', () => {
    const id = '7f1c7a59-3a57-4a54-9a57-59ab9f0b9b57';
    const q = dialect.sqlToQuery(
      searchQuery({ ...base, fileIds: [id], filters: { doc_type: '办法' } }),
    );
    expect(q.sql).toContain('and f.doc_type = $');
    expect(q.sql).toMatch(/and f\.id in \(\$\d+::uuid\)\)/);
  });
});

describe('the matching files, counted before the search', () => {
  it('names them only within the small-scope limits, within the files and collections asked', () => {
    const id = '7f1c7a59-3a57-4a54-9a57-59ab9f0b9b57';
    const q = dialect.sqlToQuery(
      filteredScopeQuery(
        fileFilterCondition({ doc_type: '办法' })!,
        { files: 100, chunks: 1000 },
        {
          collectionIds: [id],
        },
      ),
    );
    expect(q.sql).toContain('case when count(*) <= $1 and coalesce(sum(chunks), 0) <= $2');
    expect(q.sql).toContain("f.status = 'ready' and f.chunks > 0 and f.doc_type = $3");
    expect(q.sql).toContain('and f.collection_id in ($4::uuid)');
    expect(q.sql).toContain('limit $5');
    expect(q.params).toEqual([100, 1000, '办法', id, 101]);
  });

  it('keeps a larger set inside the statement, off the file-id index', () => {
    const q = dialect.sqlToQuery(searchQuery({ ...base, filters: { in_force: true } }));
    expect(q.sql).not.toMatch(/"chunks"\."file_id" = any/);
    expect(q.sql).toContain(
      '"chunks"."file_id" <> all(array(select f.id from files f where ((case',
    );
  });
});
