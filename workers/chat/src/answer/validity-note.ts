import type { z } from 'zod';
import type { ChatSource } from '#shared/contracts/chat-sources';
import type { Language } from './language';

type Source = Pick<
  z.output<typeof ChatSource>,
  'file_id' | 'file_name' | 'doc_number' | 'title' | 'citation' | 'validity'
>;
/** What names a document: the cited source, or a relation's other document. */
type Named = { doc_number?: string | null; title?: string | null; file_name?: string | null };

/**
 * The line told after an answer that cites a document no longer as it was: repealed, replaced,
 * amended or expired (knowledge's validity), naming the document that did it. Sent as one more
 * `content` message, so the original's clients, which show only `data.content`, read it too;
 * the sources carry the same `validity` for clients that show it their own way. `[n]` is the
 * source's number in the answer (its place among the sources), as the answer cites it.
 * Undefined when no cited source needs a word.
 */
export function validityNote(
  sources: readonly Source[],
  language: Language,
  /** False where the answer cites pages by marker, not by number (a chat about chosen files). */
  numbered = true,
): string | undefined {
  const byFile = new Map<string, { numbers: number[]; source: Source }>();
  sources.forEach((source, i) => {
    const status = source.validity?.status;
    if (source.citation == null || !status || status === 'in_force') return;
    const entry = byFile.get(source.file_id) ?? { numbers: [], source };
    entry.numbers.push(i + 1);
    byFile.set(source.file_id, entry);
  });
  if (byFile.size === 0) return undefined;
  const words = WORDS[language];
  const sentences = [...byFile.values()].map(({ numbers, source }) => {
    const cited = numbered ? `${numbers.map((n) => `[${n}]`).join('')} ` : '';
    return `${cited}${words.sentence(words.named(source), what(source, words))}`;
  });
  return `\n\n> ${words.lead}${sentences.join(words.separator)}`;
}

interface Words {
  lead: string;
  separator: string;
  /** A document (the cited one, or the one that repealed it): by its 文号, title, or file's name. */
  named: (document: Named) => string;
  list: (names: string[]) => string;
  repealed_by: (by: string) => string;
  replaced_by: (by: string) => string;
  amended_by: (by: string) => string;
  repealed: string;
  amended: string;
  expired: string;
  sentence: (name: string, what: string) => string;
}

const WORDS: Record<Language, Words> = {
  zh: {
    lead: '注意：',
    separator: '',
    named: (d) =>
      d.doc_number
        ? `${d.doc_number}文件`
        : `《${stripTitle(d.title ?? documentName(d.file_name ?? ''))}》`,
    list: (names) => names.join('、'),
    repealed_by: (by) => `已被${by}废止`,
    replaced_by: (by) => `已被${by}替代`,
    amended_by: (by) => `已被${by}修改，请以修改后的规定为准`,
    repealed: '已废止',
    amended: '已被修改，请以修改后的规定为准',
    expired: '已超过有效期',
    sentence: (name, what) => `${name}${what}。`,
  },
  en: {
    lead: 'Note: ',
    separator: ' ',
    named: (d) => d.doc_number ?? `“${d.title ?? documentName(d.file_name ?? '')}”`,
    list: (names) =>
      names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`,
    repealed_by: (by) => `was repealed by ${by}`,
    replaced_by: (by) => `was replaced by ${by}`,
    amended_by: (by) => `was amended by ${by}; check the amended provisions`,
    repealed: 'was repealed',
    amended: 'was amended; check the amended provisions',
    expired: 'has expired',
    sentence: (name, what) => `${name} ${what}.`,
  },
};

/** What happened to the source's document, in words. */
function what(source: Source, words: Words): string {
  const { status, relations } = source.validity!;
  if (status === 'expired') return words.expired;
  const kinds =
    status === 'amended' ? (['amended_by'] as const) : (['repealed_by', 'replaced_by'] as const);
  const parts = kinds.flatMap((kind) => {
    const by = relations.filter((r) => r.relation === kind).map(words.named);
    return by.length > 0 ? [words[kind](words.list([...new Set(by)]))] : [];
  });
  if (parts.length > 0) return parts.join(words === WORDS.zh ? '，' : ', ');
  return status === 'amended' ? words.amended : words.repealed;
}

/** A file's name without its extension: what the document is called. */
function documentName(fileName: string): string {
  return fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}

/** 《…》 already around a title is not doubled. */
function stripTitle(title: string): string {
  return title.replace(/^《(.*)》$/u, '$1');
}
