import type { SaxesTagNS } from 'saxes';
import type { PartReader } from './docx-text';
import { wordAttribute, wordName } from './docx-xml';

/** Paragraph style id → the heading level (1–3) it gives a paragraph. */
export type HeadingLevels = ReadonlyMap<string, 1 | 2 | 3>;

interface Style {
  name?: string;
  basedOn?: string;
  outlineLevel?: number;
}

/**
 * Which paragraph styles are headings, from `word/styles.xml`: the built-in Heading 1–3
 * (named `heading 1`…, whatever the language of the Word that wrote it shows), styles named
 * 标题 1–3, and any style with outline level 1–3 — set on it or on a style it is based on, as
 * the custom heading styles of many official templates are.
 */
export class DocxStylesReader implements PartReader {
  readonly #styles = new Map<string, Style>();
  #current: Style | undefined;
  #inParagraphProperties = false;

  open(tag: SaxesTagNS): void {
    const name = wordName(tag);
    if (name === 'style') {
      const id = wordAttribute(tag, 'styleId');
      this.#current = undefined;
      if (id !== undefined && wordAttribute(tag, 'type') !== 'character') {
        this.#current = {};
        this.#styles.set(id, this.#current);
      }
      return;
    }
    const style = this.#current;
    if (!style) return;
    if (name === 'name') style.name = wordAttribute(tag, 'val');
    else if (name === 'basedOn') style.basedOn = wordAttribute(tag, 'val');
    else if (name === 'pPr') this.#inParagraphProperties = true;
    else if (name === 'outlineLvl' && this.#inParagraphProperties) {
      style.outlineLevel = Number(wordAttribute(tag, 'val'));
    }
  }

  text(): void {}

  close(tag: SaxesTagNS): void {
    const name = wordName(tag);
    if (name === 'pPr') this.#inParagraphProperties = false;
    else if (name === 'style') this.#current = undefined;
  }

  levels(): HeadingLevels {
    const levels = new Map<string, 1 | 2 | 3>();
    for (const id of this.#styles.keys()) {
      const level = this.#levelOf(id);
      if (level !== undefined) levels.set(id, level);
    }
    return levels;
  }

  #levelOf(id: string): 1 | 2 | 3 | undefined {
    // Follows basedOn a few steps at most: a chain that loops must not hang the reader.
    for (let step = 0, at: string | undefined = id; at !== undefined && step < 10; step++) {
      const style = this.#styles.get(at);
      if (!style) break;
      const named = /^(?:heading|标题)\s*([1-9])$/i.exec(style.name?.trim() ?? '')?.[1];
      const level = named !== undefined ? Number(named) : (style.outlineLevel ?? NaN) + 1;
      if (Number.isInteger(level))
        return level >= 1 && level <= 3 ? (level as 1 | 2 | 3) : undefined;
      at = style.basedOn;
    }
    return headingStyleId(id);
  }
}

/** A style id that names a heading itself (`Heading1`), for documents without styles. */
export function headingStyleId(id: string): 1 | 2 | 3 | undefined {
  const level = Number(/^Heading([1-3])$/i.exec(id)?.[1]);
  return level >= 1 && level <= 3 ? (level as 1 | 2 | 3) : undefined;
}
