import { describe, expect, it } from 'vitest';
import {
  ADMIN_PAGES,
  chunksLink,
  collectionLink,
  documentLink,
  pageLink,
  routeKey,
  routeOf,
  USER_PAGES,
} from './route';

const FILE = '0b9f4c1e-7d2a-4e5b-9c3d-2a1b0c9d8e7f';

describe('routeOf', () => {
  it('reads a document deep link with its page and passage', () => {
    expect(routeOf(`#/doc/${FILE}?page=30&chunk=1234`)).toEqual({
      page: 'doc',
      id: FILE,
      at: 30,
      chunk: 1234,
    });
    expect(routeOf(`#/doc/${FILE.toUpperCase()}`)).toEqual({ page: 'doc', id: FILE });
  });

  it('ignores a page or passage that is not a positive number', () => {
    expect(routeOf(`#/doc/${FILE}?page=0&chunk=x1`)).toEqual({ page: 'doc', id: FILE });
    expect(routeOf(`#/doc/${FILE}?page=-3`)).toEqual({ page: 'doc', id: FILE });
  });

  it('reads a collection screen, its members by default', () => {
    expect(routeOf(`#/collection/${FILE}`)).toEqual({
      page: 'collection',
      id: FILE,
      section: 'members',
    });
    expect(routeOf(`#/collection/${FILE}/gaps`)).toEqual({
      page: 'collection',
      id: FILE,
      section: 'gaps',
    });
    expect(routeOf(`#/collection/${FILE}/nothing`)).toEqual({ page: 'chat' });
    expect(collectionLink(FILE, 'retrieval')).toBe(`#/collection/${FILE}/retrieval`);
    expect(collectionLink(FILE)).toBe(`#/collection/${FILE}`);
  });

  it('reads a document link that names no file as such: the viewer says it does not exist', () => {
    expect(routeOf('#/doc/not-a-file')).toEqual({ page: 'doc', id: 'not-a-file', malformed: true });
    expect(routeOf('#/doc/?page=2')).toEqual({ page: 'doc', id: '', malformed: true });
    expect(routeOf(`#/doc/${FILE}x?page=2`)).toEqual({
      page: 'doc',
      id: `${FILE}x`,
      malformed: true,
    });
  });

  it('takes anything else for the chat', () => {
    expect(routeOf('#/doc')).toEqual({ page: 'chat' });
    expect(routeOf('#/users')).toEqual({ page: 'users' });
  });
});

describe('documentLink', () => {
  it('makes the deep link routeOf reads back', () => {
    const link = documentLink(FILE, 3, 77);
    expect(link).toBe(`#/doc/${FILE}?page=3&chunk=77`);
    expect(routeOf(link)).toEqual({ page: 'doc', id: FILE, at: 3, chunk: 77 });
    expect(documentLink(FILE, 3, null)).toBe(`#/doc/${FILE}?page=3`);
  });

  it('keeps one screen for the pages of one document', () => {
    expect(routeKey(routeOf(documentLink(FILE, 1)))).toBe(routeKey(routeOf(documentLink(FILE, 2))));
  });
});

describe('chunksLink', () => {
  it('makes the chunks screen link routeOf reads back, one screen for its pages', () => {
    expect(chunksLink(FILE)).toBe(`#/chunks/${FILE}`);
    expect(routeOf(chunksLink(FILE))).toEqual({ page: 'chunks', id: FILE });
    expect(routeOf(chunksLink(FILE, 4))).toEqual({ page: 'chunks', id: FILE, at: 4 });
    expect(chunksLink(FILE, 1)).toBe(`#/chunks/${FILE}`);
    expect(routeOf(`#/chunks/${FILE.toUpperCase()}?page=x`)).toEqual({ page: 'chunks', id: FILE });
    expect(routeOf('#/chunks/not-a-file')).toEqual({ page: 'chat' });
    expect(routeKey(routeOf(chunksLink(FILE, 2)))).toBe(routeKey(routeOf(chunksLink(FILE))));
    expect(routeKey(routeOf(chunksLink(FILE)))).not.toBe(routeKey(routeOf(documentLink(FILE))));
  });
});

describe('the account and admin pages', () => {
  it('reads the user’s own pages and the super admins’ pages from their links', () => {
    expect(routeOf('#/account')).toEqual({ page: 'account' });
    expect(routeOf('#/keys')).toEqual({ page: 'keys' });
    expect(routeOf('#/usage')).toEqual({ page: 'usage' });
    expect(routeOf('#/admin/usage')).toEqual({ page: 'admin-usage' });
    expect(routeOf('#/admin/audit')).toEqual({ page: 'audit' });
    expect(routeOf('#/admin/limits')).toEqual({ page: 'limits' });
  });

  it('makes each page’s link, which reads back as that page, each a screen of its own', () => {
    const pages = [...USER_PAGES, ...(Object.keys(ADMIN_PAGES) as (keyof typeof ADMIN_PAGES)[])];
    for (const page of pages) expect(routeOf(pageLink(page))).toEqual({ page });
    expect(new Set(pages.map((page) => routeKey(routeOf(pageLink(page))))).size).toBe(6);
    expect(pageLink('audit')).toBe('#/admin/audit');
    expect(pageLink('keys')).toBe('#/keys');
  });

  it('takes near misses for the chat', () => {
    for (const hash of ['#/admin', '#/admin/', '#/admin/users', '#/account/', '#/Keys', '#/audit'])
      expect(routeOf(hash), hash).toEqual({ page: 'chat' });
  });
});
