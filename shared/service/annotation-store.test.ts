import { describe, expect, it } from 'vitest';
import { AnnotationStore, methodNameOf } from './annotation-store';

const store = new AnnotationStore([
  [
    'GetQuery',
    [
      { name: 'grpc', params: [] },
      { name: 'role', params: ['USER', 'SUPER_ADMIN'] },
    ],
  ],
  ['PostLogin', [{ name: 'role', params: ['guest'] }]],
  [
    'Stats',
    [
      { name: 'role', params: ['USER'] },
      { name: 'role', params: ['AUDITOR'] },
    ],
  ],
  ['Chat', []],
]);

describe('AnnotationStore', () => {
  it.each([
    ['GetQuery', 'role', true],
    ['GetQuery', 'grpc', true],
    ['GetQuery', 'path', false],
    ['Chat', 'role', false],
    ['Unknown', 'role', false],
  ])('hasAnnotation(%s, %s) = %s', (route, name, expected) => {
    expect(store.hasAnnotation(route, name)).toBe(expected);
  });

  it.each([
    ['GetQuery', 'role', ['USER', 'SUPER_ADMIN']],
    ['GetQuery', 'grpc', []],
    ['PostLogin', 'role', ['guest']],
    ['Stats', 'role', ['USER', 'AUDITOR']],
    ['Chat', 'role', undefined],
    ['Unknown', 'role', undefined],
  ])('getParams(%s, %s) = %j', (route, name, expected) => {
    expect(store.getParams(route, name)).toEqual(expected);
  });

  it('lists its routes', () => {
    expect(store.routes()).toEqual(['GetQuery', 'PostLogin', 'Stats', 'Chat']);
  });
});

describe('methodNameOf', () => {
  it.each([
    ['/knowledge.KnowledgeService/GetQuery', 'GetQuery'],
    ['knowledge/GetQuery', 'GetQuery'],
    ['GetQuery', 'GetQuery'],
    ['/a/b/', ''],
  ])('%s → %s', (full, name) => {
    expect(methodNameOf(full)).toBe(name);
  });
});
