import type { SaxesTagNS } from 'saxes';

/**
 * WordprocessingML names, as the document's XML declares them: transitional (what Word
 * writes) or strict (ISO 29500 strict), whatever prefixes the file binds them to.
 */
const WORD = new Set([
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  'http://purl.oclc.org/ooxml/wordprocessingml/main',
]);
const MARKUP_COMPATIBILITY = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/** The element's WordprocessingML local name (`p`, `t`, `pStyle`…), or undefined for others. */
export function wordName(tag: SaxesTagNS): string | undefined {
  return WORD.has(tag.uri) ? tag.local : undefined;
}

/** `mc:Choice`: content for newer readers; its `mc:Fallback` twin holds the same text. */
export function isCompatibilityChoice(tag: SaxesTagNS): boolean {
  return tag.uri === MARKUP_COMPATIBILITY && tag.local === 'Choice';
}

/** A WordprocessingML attribute of the element (`w:val`, `w:type`…). */
export function wordAttribute(tag: SaxesTagNS, local: string): string | undefined {
  for (const attribute of Object.values(tag.attributes)) {
    if (attribute.local === local && WORD.has(attribute.uri)) return attribute.value;
  }
  return undefined;
}
