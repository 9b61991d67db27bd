import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect-format';
import { DocumentError } from './document-error';
import { documentSections } from './document-sections';

// Text files told apart by their bytes, and text that cannot be decoded: always a
// DocumentError with a reason (422 document_bad_encoding), never a decoder's TypeError (500).

const HEAD_BYTES = 64 * 1024; // how much of a file detectFormat reads

function utf16(text: string, order: 'le' | 'be', options: { bom?: boolean } = {}): Uint8Array {
  const bytes = new Uint8Array(2 * text.length + (options.bom === false ? 0 : 2));
  const view = new DataView(bytes.buffer);
  let at = 0;
  if (options.bom !== false) {
    view.setUint16(0, 0xfeff, order === 'le');
    at = 2;
  }
  for (let i = 0; i < text.length; i++, at += 2)
    view.setUint16(at, text.charCodeAt(i), order === 'le');
  return bytes;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const ascii = (text: string) => text.replace(/[^\x20-\x7e\n]/g, '');
const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((part) => [...part]));
// 创业担保贷款 in GB18030 (two bytes a character).
const GB_TEXT = new Uint8Array([
  0xb4, 0xb4, 0xd2, 0xb5, 0xb5, 0xa3, 0xb1, 0xa3, 0xb4, 0xfb, 0xbf, 0xee,
]);

/** What detecting and reading the bytes throws, or 'read' when they read as text. */
async function outcome(bytes: Uint8Array): Promise<unknown> {
  try {
    const detected = detectFormat(bytes);
    if (!detected) return 'unsupported';
    await documentSections(bytes, detected, { maxPages: 500 });
    return 'read';
  } catch (err) {
    return err;
  }
}

function expectBadEncoding(error: unknown, what = 'The text file') {
  expect(error).toBeInstanceOf(DocumentError);
  expect(error).toMatchObject({ code: 'document_bad_encoding', status: 422 });
  expect((error as DocumentError).message).toMatch(new RegExp(`^${what} is not valid text`));
}

describe('text that does not decode: document_bad_encoding, wherever the bad bytes are', () => {
  const prose = 'Refunds are paid within 14 days. 退款在十四天内支付。';

  it.each([
    ['UTF-16LE with an unpaired high surrogate', utf16(`${prose}\uD83D and more`, 'le')],
    ['UTF-16LE with an unpaired low surrogate', utf16(`${prose}\uDE00 and more`, 'le')],
    ['UTF-16BE with an unpaired high surrogate', utf16(`${prose}\uD83D and more`, 'be')],
    ['UTF-16BE with an unpaired low surrogate', utf16(`${prose}\uDE00 and more`, 'be')],
    ['UTF-16LE ending in half a pair', utf16(`${prose}\uD83D`, 'le')],
    ['UTF-16LE of an odd length', concat(utf16(prose, 'le'), new Uint8Array([0x41]))],
    ['UTF-16BE of an odd length', concat(utf16(prose, 'be'), new Uint8Array([0x41]))],
    [
      'UTF-8 with a byte-order mark and an invalid byte',
      concat(utf8(`\uFEFF${prose}`), new Uint8Array([0xff]), utf8(' more')),
    ],
    [
      // Valid GB18030 bytes, but the byte-order mark says UTF-8: not to be read as GB18030.
      'UTF-8 with a byte-order mark and bytes that are GB18030',
      concat(utf8('\uFEFFRefunds '), new Uint8Array([0x81, 0x40]), utf8(' within 14 days')),
    ],
    [
      'UTF-8 with a truncated sequence at its end',
      concat(utf8(prose), new Uint8Array([0xe4, 0xb8])),
    ],
    ['GB18030 with an invalid sequence', concat(GB_TEXT, new Uint8Array([0x81, 0x20]), GB_TEXT)],
    ['text in no encoding at all', new Uint8Array([0x41, 0x81, 0x20, 0xff, 0x42, 0xfe, 0x30])],
  ])('%s, in the first bytes', async (_, bytes) => {
    expectBadEncoding(await outcome(bytes));
  });

  it.each([
    ['UTF-16LE with an unpaired surrogate', (pad: string) => utf16(`${pad}\uD83D!`, 'le')],
    ['UTF-16BE with an unpaired surrogate', (pad: string) => utf16(`${pad}\uDE00!`, 'be')],
    [
      'UTF-16LE of an odd length',
      (pad: string) => concat(utf16(pad, 'le'), new Uint8Array([0x41])),
    ],
    ['UTF-8 with an invalid byte', (pad: string) => concat(utf8(pad), new Uint8Array([0xff]))],
    [
      'GB18030 with an invalid sequence',
      (pad: string) => concat(GB_TEXT, utf8(ascii(pad)), new Uint8Array([0x81, 0x20])),
    ],
  ])('%s, past the bytes read to detect the format', async (_, make) => {
    const bytes = make(`${prose}\n`.repeat(Math.ceil((2 * HEAD_BYTES) / prose.length)));
    expect(bytes.length).toBeGreaterThan(HEAD_BYTES);
    expectBadEncoding(await outcome(bytes));
  });

  it('names what the text was meant to be: an HTML page in UTF-16', async () => {
    const page = utf16(`<!DOCTYPE html><html><body><p>${prose}\uD83D</p></body></html>`, 'le');
    expectBadEncoding(await outcome(page), 'The HTML page');
  });
});

describe('text that decodes reads as what it is', () => {
  it.each([
    ['UTF-16LE', utf16('Refunds 退款 😀 within 14 days', 'le'), 'utf-16le'],
    ['UTF-16BE', utf16('Refunds 退款 😀 within 14 days', 'be'), 'utf-16be'],
    ['UTF-8 with a byte-order mark', utf8('\uFEFFRefunds 退款 within 14 days'), 'utf-8'],
    ['GB18030', GB_TEXT, 'gb18030'],
  ])('%s', async (_, bytes, encoding) => {
    expect(detectFormat(bytes)).toMatchObject({ format: 'text', encoding });
    expect(await outcome(bytes)).toBe('read');
  });

  it('a character split across the end of the bytes read to detect the format', async () => {
    for (const order of ['le', 'be'] as const) {
      // After the two-byte BOM, 32,766 characters: the pair's high half ends the first 64 KiB.
      const bytes = utf16(`${'x'.repeat(HEAD_BYTES / 2 - 2)}😀 and the rest`, order);
      expect(detectFormat(bytes)?.encoding).toBe(`utf-16${order}`);
      expect(await outcome(bytes)).toBe('read');
    }
    const chinese = utf8(`${'x'.repeat(HEAD_BYTES - 1)}退款 and the rest`);
    expect(detectFormat(chinese)?.encoding).toBe('utf-8');
    expect(await outcome(chinese)).toBe('read');
  });

  it('binary bytes are not text: unsupported, not a bad encoding', async () => {
    expect(await outcome(new Uint8Array([0x41, 0x00, 0x42, 0x01, 0xff]))).toBe('unsupported');
  });
});
