import { describe, expect, it } from 'vitest';
import { docExamples } from './doc-examples.ts';
import { mismatches, parseExpected, parseWithEllipses } from './expected-output.ts';

describe('the examples of a document', () => {
  const doc = [
    'Some prose.',
    '',
    '<!-- run -->',
    '```sh',
    '# log in',
    'TOKEN=$(curl -s "$B/login" \\',
    '  -d \'{"u":"admin"}\' | node -pe "1")',
    'curl -s "$B/list"',
    '# {"data":[{"id":"…","pages":1,',
    '#           "status":"ready"},…]}',
    '# and now prose',
    'echo done',
    '```',
    '',
    '```sh',
    'curl -s "$B/not-run"',
    '```',
    '```sh',
    'npm install',
    '```',
  ].join('\n');

  it('runs the marked blocks, step by step, with what each prints', () => {
    const { steps, unmarkedCurl } = docExamples(doc);
    expect(steps.map((s) => [s.line, s.command])).toEqual([
      [6, 'TOKEN=$(curl -s "$B/login" \\\n  -d \'{"u":"admin"}\' | node -pe "1")'],
      [8, 'curl -s "$B/list"'],
      [12, 'echo done'],
    ]);
    expect(steps[1]!.expected).toEqual({
      kind: 'json',
      value: { data: [{ id: '…', pages: 1, status: 'ready' }, '\u2026more\u2026'] },
    });
    expect(steps[0]!.expected).toBeUndefined();
    expect(unmarkedCurl).toEqual([15]);
  });
});

describe('an output compared with the docs', () => {
  const json = (text: string) => parseExpected([text]);

  it('matches by shape: keys, types, strings without …, nothing more unless …', () => {
    const expected = json('{"data":{"id":"3c40…","status":"ready","pages":1,"duplicate":false}}');
    expect(
      mismatches(expected, '{"data":{"id":"x","status":"ready","pages":9,"duplicate":true}}'),
    ).toEqual([]);
    expect(
      mismatches(expected, '{"data":{"id":"x","status":"queued","pages":9,"duplicate":true}}'),
    ).toEqual(['$.data.status: expected "ready", got "queued"']);
    expect(mismatches(expected, '{"data":{"id":"x","status":"ready","pages":9}}')).toEqual([
      '$.data.duplicate: missing',
    ]);
    expect(
      mismatches(expected, '{"data":{"id":"x","status":"ready","pages":9,"duplicate":true,"x":1}}'),
    ).toEqual(['$.data: not in the docs: x']);
    expect(mismatches(json('{"data":{"id":"…",…}}'), '{"data":{"id":"x","y":2}}')).toEqual([]);
    expect(mismatches(json('{"total":…,"n":1}'), '{"total":{"a":[1]},"n":2}')).toEqual([]);
  });

  it('arrays: the items shown, and more only where … says so', () => {
    expect(mismatches(json('[{"a":1},…]'), '[{"a":2},{"a":3}]')).toEqual([]);
    expect(mismatches(json('[{"a":1},…]'), '[]')).toEqual(['$: expected at least 1 items, got 0']);
    expect(mismatches(json('[{"a":1}]'), '[{"a":2},{"a":3}]')).toEqual([
      '$: expected 1 items, got 2',
    ]);
  });

  it('keeps … inside strings and escaped quotes as they are', () => {
    expect(parseWithEllipses('{"t":"a \\"q\\" …","n":[1,…]}')).toEqual({
      t: 'a "q" …',
      n: [1, '\u2026more\u2026'],
    });
  });

  it('an event stream: in order, … for any events, each data by shape', () => {
    const expected = parseExpected([
      ': open',
      'event: conversation',
      'data: {"conversation_id":"…","created":true}',
      'data: {"content":"…","type":"content"}',
      '…',
      'event: done',
      'data: {"request_id":"…",…}',
    ]);
    const stream = [
      ': open',
      '',
      'event: conversation',
      'data: {"conversation_id":"c1","created":true}',
      '',
      'data: {"content":"Hello","type":"content"}',
      '',
      'data: {"content":" world","type":"content"}',
      '',
      'event: sources',
      'data: []',
      '',
      'event: done',
      'data: {"request_id":"r","usage":{}}',
      '',
    ].join('\n');
    expect(mismatches(expected, stream)).toEqual([]);
    expect(mismatches(expected, stream.replace('event: done', 'event: finished'))).toEqual([
      'event done: not in the rest of the stream',
    ]);
    expect(mismatches(expected, stream.replace('"created":true', '"created":1'))).toEqual([
      'event conversation: $.created: expected a boolean, got 1',
    ]);
  });
});
