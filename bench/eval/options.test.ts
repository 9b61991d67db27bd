import { describe, expect, it } from 'vitest';
import { parseOptions } from './options.ts';

const parse = (...argv: string[]) => parseOptions(argv, '/repo');

describe('parseOptions', () => {
  it('defaults to the isolated run with every mode at threshold 0.5', () => {
    expect(parse()).toEqual({
      threshold: 0.5,
      modes: ['vector', 'hybrid', 'keyword'],
      out: '/repo/bench-results/eval.json',
    });
  });

  it('accepts a loopback service with a questions file', () => {
    const options = parse('--url', 'http://127.0.0.1:8787/', '--questions', '/q.json');
    expect(options.operator).toEqual({
      url: 'http://127.0.0.1:8787',
      questions: '/q.json',
      token: undefined,
      allowRemote: false,
    });
  });

  it('refuses a remote service unless --allow-remote is given', () => {
    const remote = ['--url', 'https://kb.example.com', '--questions', '/q.json'];
    expect(() => parse(...remote)).toThrow(/not loopback/);
    expect(parse(...remote, '--allow-remote').operator?.url).toBe('https://kb.example.com');
  });

  it('rejects bad thresholds, unknown modes and operator options without --url', () => {
    expect(() => parse('--threshold', '2')).toThrow(/--threshold/);
    expect(() => parse('--modes', 'vector,semantic')).toThrow(/--modes/);
    expect(parse('--modes', 'keyword,vector').modes).toEqual(['vector', 'keyword']);
    expect(() => parse('--questions', '/q.json')).toThrow(/need --url/);
    expect(() => parse('--url', 'http://localhost:8787')).toThrow(/needs --questions/);
    expect(() => parse('--url', 'ftp://localhost')).toThrow(/http/);
  });
});

describe('parseOptions --collection', () => {
  const ID = '3f1c2a9e-0b7d-4c55-9a61-2e8f0d4b7c11';

  it('defaults to the local dev stack and its admin, top 10', () => {
    const options = parse('--collection', ID.toUpperCase());
    expect(options.operator).toBeUndefined();
    expect(options.collection).toMatchObject({
      id: ID,
      url: 'http://127.0.0.1:8787',
      top: 10,
      username: process.env.KBCHAT_USERNAME ?? 'admin',
    });
  });

  it('takes a service, a login and top, and refuses what does not fit', () => {
    const options = parse(
      '--collection',
      ID,
      '--url',
      'http://localhost:9000/',
      '--username',
      'kim',
      '--password',
      'pw',
      '--top',
      '5',
      '--modes',
      'hybrid',
    );
    expect(options.collection).toEqual({
      id: ID,
      url: 'http://localhost:9000',
      top: 5,
      username: 'kim',
      password: 'pw',
    });
    expect(options.modes).toEqual(['hybrid']);
    expect(() => parse('--collection', 'shared')).toThrow(/collection id/);
    expect(() => parse('--collection', ID, '--top', '0')).toThrow(/--top/);
    expect(() => parse('--collection', ID, '--username', 'kim')).toThrow(/go together/);
    expect(() => parse('--collection', ID, '--url', 'https://kb.example.com')).toThrow(/loopback/);
    expect(() => parse('--top', '5')).toThrow(/need --collection/);
  });
});
