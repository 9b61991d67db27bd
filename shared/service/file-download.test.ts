import { describe, expect, it } from 'vitest';
import {
  contentDisposition,
  fileDownload,
  fileDownloadResponse,
  filenameFromDisposition,
  isFileDownloadSpec,
  parseByteRange,
} from './file-download';

describe('contentDisposition', () => {
  it.each([
    ['report.pdf', `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`],
    ['my report.pdf', `attachment; filename="my report.pdf"; filename*=UTF-8''my%20report.pdf`],
    ['Übersicht.pdf', `attachment; filename="_bersicht.pdf"; filename*=UTF-8''%C3%9Cbersicht.pdf`],
    ['报告.pdf', `attachment; filename="__.pdf"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.pdf`],
    ['say "hi".txt', `attachment; filename="say hi.txt"; filename*=UTF-8''say%20hi.txt`],
    [
      'a\r\nX-Evil: 1.txt',
      `attachment; filename="aX-Evil: 1.txt"; filename*=UTF-8''aX-Evil%3A%201.txt`,
    ],
    ['../../etc\\passwd', `attachment; filename="....etcpasswd"; filename*=UTF-8''....etcpasswd`],
    [
      "it's (1)*.txt",
      `attachment; filename="it's (1)*.txt"; filename*=UTF-8''it%27s%20%281%29%2A.txt`,
    ],
    ['', `attachment; filename="download"; filename*=UTF-8''download`],
    ['"\u0000"', `attachment; filename="download"; filename*=UTF-8''download`],
  ])('%j', (filename, header) => {
    expect(contentDisposition(filename)).toBe(header);
  });

  it('can ask for inline display', () => {
    expect(contentDisposition('a.pdf', 'inline')).toMatch(/^inline; filename="a.pdf"/);
  });

  it.each(['report.pdf', 'Übersicht 2024.pdf', '报告.pdf', "it's (1)*.txt"])(
    'round-trips %j through filenameFromDisposition',
    (filename) => {
      expect(filenameFromDisposition(contentDisposition(filename))).toBe(filename);
    },
  );

  it('reads plain and quoted filename parameters', () => {
    expect(filenameFromDisposition('attachment; filename="a \\"b\\".txt"')).toBe('a "b".txt');
    expect(filenameFromDisposition('attachment; filename=plain.txt')).toBe('plain.txt');
    expect(filenameFromDisposition('attachment')).toBeUndefined();
    expect(filenameFromDisposition(null)).toBeUndefined();
  });
});

describe('fileDownloadResponse', () => {
  it('sets the download headers and streams the body', async () => {
    const response = fileDownloadResponse({
      body: 'hello',
      contentType: 'text/plain; charset=utf-8',
      filename: 'hi.txt',
      size: 5,
    });
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': `attachment; filename="hi.txt"; filename*=UTF-8''hi.txt`,
      'content-length': '5',
      'x-content-type-options': 'nosniff',
    });
    expect(await response.text()).toBe('hello');
  });
});

describe('parseByteRange', () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=900-5000', { start: 900, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    [' Bytes = 10 - 19 ', { start: 10, end: 19 }],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=5000-6000', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    // Answered whole: none, another unit, malformed, backwards, several ranges.
    [undefined, undefined],
    ['', undefined],
    ['items=0-1', undefined],
    ['bytes=a-b', undefined],
    ['bytes=-', undefined],
    ['bytes=20-10', undefined],
    ['bytes=0-1,5-6', undefined],
  ])('%j of 1000 bytes → %j', (header, expected) => {
    expect(parseByteRange(header, 1000)).toEqual(expected);
  });

  it('finds no byte of an empty file', () => {
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-1', 0)).toBe('unsatisfiable');
  });
});

describe('fileDownloadResponse with ranges', () => {
  const file = { contentType: 'application/pdf', filename: 'a.pdf', acceptRanges: true };

  it('says that ranges are accepted on a whole answer', () => {
    const response = fileDownloadResponse({ ...file, body: 'hello', size: 5 });
    expect(response.status).toBe(200);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-range')).toBeNull();
  });

  it('answers a part with 206, its place and its length', async () => {
    const response = fileDownloadResponse({
      ...file,
      body: 'll',
      size: 2,
      range: { start: 2, end: 3, total: 5 },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 2-3/5');
    expect(response.headers.get('content-length')).toBe('2');
    expect(await response.text()).toBe('ll');
  });

  it('answers a range outside the file with 416 and the file’s length', async () => {
    const response = fileDownloadResponse({ ...file, body: '', unsatisfiable: { total: 5 } });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe('bytes */5');
    expect(await response.text()).toBe('');
  });
});

describe('fileDownload', () => {
  it('declares the media types and is recognised', () => {
    expect(fileDownload()).toEqual({
      kind: 'fileDownload',
      contentTypes: ['application/octet-stream'],
    });
    expect(fileDownload({ contentTypes: ['application/pdf'] }).contentTypes).toEqual([
      'application/pdf',
    ]);
    expect(isFileDownloadSpec(fileDownload())).toBe(true);
    expect(isFileDownloadSpec({ kind: 'other' })).toBe(false);
    expect(() => fileDownload({ contentTypes: [] })).toThrow(/at least one/);
  });
});
