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
