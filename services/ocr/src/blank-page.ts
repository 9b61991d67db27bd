import type { PageImage } from './render-page.ts';

/**
 * Whether a rendered page has nothing to read: fewer dark pixels than about two characters'
 * ink. Detection runs its model over the whole page either way (2-3 s for an A4 page at
 * 200 dpi), and blank pages are common: the backs of scanned sheets, separator pages, and PDFs
 * whose pages draw nothing at all. Scanner dust stays under the bound; a page with a date line
 * or a page number of a few digits is over it.
 */
export function isBlankPage(image: PageImage): boolean {
  const { data, width, height } = image;
  const limit = Math.max(1, Math.floor(width * height * DARK_SHARE));
  let dark = 0;
  for (let at = 0; at < data.length; at += 4) {
    // Rec. 601 luma, in integers.
    const luma = (data[at]! * 299 + data[at + 1]! * 587 + data[at + 2]! * 114) / 1000;
    if (luma < DARK_LUMA && ++dark >= limit) return false;
  }
  return true;
}

/** Ink is darker than this (0-255). */
const DARK_LUMA = 160;
/** A page needs at least this share of its pixels dark to be read: 800 of an A4 page's 3.9 M. */
const DARK_SHARE = 0.0002;
