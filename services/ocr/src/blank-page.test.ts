import { describe, expect, it } from 'vitest';
import { isBlankPage } from './blank-page.ts';

/** A white A4 page at 200 dpi with `dark` black pixels scattered over it. */
function page(dark: number) {
  const width = 1654;
  const height = 2339;
  const data = new Uint8Array(width * height * 4).fill(255);
  for (let i = 0; i < dark; i++) {
    const at = ((i * 7919) % (width * height)) * 4;
    data[at] = data[at + 1] = data[at + 2] = 20;
  }
  return { data, width, height };
}

describe('a blank page', () => {
  it('is white, or white with scanner dust', () => {
    expect(isBlankPage(page(0))).toBe(true);
    expect(isBlankPage(page(300))).toBe(true);
  });

  it('is not a page with a few characters of ink', () => {
    expect(isBlankPage(page(2000))).toBe(false);
  });

  it('is not a page of mid-grey text (light ink counts once it is darker than paper)', () => {
    const grey = page(0);
    for (let at = 0; at < 4 * 5000; at += 4)
      grey.data[at] = grey.data[at + 1] = grey.data[at + 2] = 120;
    expect(isBlankPage(grey)).toBe(false);
  });
});
