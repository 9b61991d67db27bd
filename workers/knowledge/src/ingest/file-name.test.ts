import { describe, expect, it } from 'vitest';
import { FALLBACK_FILE_NAME, MAX_FILE_NAME_LENGTH, sanitiseFileName } from './file-name';

const codePoints = (text: string) => [...text].length;

describe('sanitiseFileName', () => {
  it.each<[string | undefined, string]>([
    [undefined, FALLBACK_FILE_NAME],
    ['', FALLBACK_FILE_NAME],
    ['   ', FALLBACK_FILE_NAME],
    ['...', FALLBACK_FILE_NAME],
    ['reports/', FALLBACK_FILE_NAME],
    ['\u0000\u202e', FALLBACK_FILE_NAME],
    ['report.pdf', 'report.pdf'],
    ['Annual Report 2025.PDF', 'Annual Report 2025.PDF'],
    ['../../etc/passwd', 'passwd.pdf'],
    ['/var/data/../secret.pdf', 'secret.pdf'],
    ['C:\\x\\y.pdf', 'y.pdf'],
    ['..\\..\\windows\\win.ini', 'win.ini.pdf'],
    ['\u202Egnp.pdf', 'gnp.pdf'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe.pdf'],
    ['a\u2066b\u2069c\u200f.pdf', 'abc.pdf'],
    ['.bashrc', 'bashrc.pdf'],
    ['..hidden.pdf', 'hidden.pdf'],
    ['report.pdf.', 'report.pdf'],
    ['nul\u0000byte.pdf', 'nulbyte.pdf'],
    ['bell\u0007and\u009bcsi.pdf', 'bellandcsi.pdf'],
    ['tab\tand\nnewline.pdf', 'tab and newline.pdf'],
    ['  lots   of \u3000 space  .pdf  ', 'lots of space .pdf'],
    ['notes.txt', 'notes.txt.pdf'],
    ['住房补贴政策（2025年版）.pdf', '住房补贴政策（2025年版）.pdf'],
    ['公共交通', '公共交通.pdf'],
    ['cafe\u0301.pdf', 'café.pdf'],
    ['lone\ud800surrogate.pdf', 'lonesurrogate.pdf'],
    ['family 👨‍👩‍👧.pdf', 'family 👨‍👩‍👧.pdf'],
  ])('%j → %j', (name, expected) => {
    expect(sanitiseFileName(name)).toBe(expected);
  });

  it.each([
    ['Latin', 'a'],
    ['Chinese', '政'],
    ['emoji', '😀'],
  ])('limits a very long %s name to %i code points and keeps the extension', (_script, char) => {
    const name = sanitiseFileName(`${char.repeat(500)}.pdf`);

    expect(codePoints(name)).toBe(MAX_FILE_NAME_LENGTH);
    expect(name).toBe(`${char.repeat(MAX_FILE_NAME_LENGTH - 4)}.pdf`);
  });

  it('adds the extension within the limit to a long name without one', () => {
    const name = sanitiseFileName('b'.repeat(300));

    expect(name).toBe(`${'b'.repeat(MAX_FILE_NAME_LENGTH - 4)}.pdf`);
  });

  it('does not cut a letter from its accent at the limit', () => {
    // x + combining acute has no precomposed form, so it stays two code points after NFC.
    const name = sanitiseFileName(`${'x\u0301'.repeat(150)}.pdf`);

    expect(name).toBe(`${'x\u0301'.repeat(98)}.pdf`);
  });

  it('keeps a name of exactly the limit unchanged', () => {
    const name = `${'c'.repeat(MAX_FILE_NAME_LENGTH - 4)}.pdf`;

    expect(sanitiseFileName(name)).toBe(name);
  });

  it('never returns a name with a separator, control or bidi character', () => {
    const hostile = ['a/b\\c\u0000d\u202ee\u2067f\r\ng.pdf', '\\\\server\\share\\x.pdf'];
    for (const name of hostile) {
      expect(sanitiseFileName(name)).not.toMatch(/[/\\\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
    }
  });
});
