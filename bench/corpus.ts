// Deterministic synthetic corpus for the query bench: documents of topic-flavoured paragraphs and
// question-like texts built from the words of random chunks.
//
// The words are pseudo-words (syllable strings), chosen so that each survives the offline
// model's tokenizer as exactly one distinct stem. Word frequencies follow a Zipf law over a
// global vocabulary plus a per-document topic vocabulary, with real English function words
// (which the tokenizer drops) in between, and consecutive chunks share a sentence as the real
// chunker's 100-character overlap does. What matters for the index is the shape of the
// vectors the offline model makes from them: ~40–70 hashed tokens per 500-character chunk on
// top of the constant direction e0, like the service's local embeddings.
import { tokenize } from '../dev/stack/offline-model/lexical.ts';

export interface CorpusChunk {
  /** 0-based document number. */
  doc: number;
  /** 1-based page within the document. */
  page: number;
  /** 0-based position in the document. */
  index: number;
  content: string;
}

/** Small, fast, seedable PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou'];
const CODAS = ['', '', '', 'n', 'r', 'l', 'm', 'x'];

const FUNCTION_WORDS = (
  'the the the of of and and to to in in is for on with as by that from at be are this it or ' +
  'which an was each any all its their these those under shall may must'
).split(' ');

/** A sampler of ranks 0…n−1 with probability ∝ 1/(rank+1)^s. */
function zipf(n: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) {
    total += 1 / (r + 1) ** s;
    cumulative[r] = total;
  }
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** `size` pseudo-words, each one distinct token after the offline tokenizer's stemming. */
function vocabulary(size: number, random: () => number): string[] {
  const words: string[] = [];
  const stems = new Set<string>();
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  let attempts = 0;
  while (words.length < size) {
    if (++attempts > size * 50) throw new Error('corpus: cannot build the vocabulary');
    const roll = random();
    const syllables = roll < 0.2 ? 1 : roll < 0.85 ? 2 : 3;
    let word = '';
    for (let i = 0; i < syllables; i++) word += pick(ONSETS) + pick(VOWELS) + pick(CODAS);
    const tokens = tokenize(word);
    if (tokens.length !== 1 || stems.has(tokens[0]!.text)) continue;
    stems.add(tokens[0]!.text);
    words.push(word);
  }
  return words;
}

export interface CorpusOptions {
  docs: number;
  chunksPerDoc: number;
  seed?: number;
  /** Global vocabulary size. */
  vocabulary?: number;
}

/** Chunks of ≤ 500 characters, `chunksPerDoc` per document, 7 per page. */
export function makeCorpus(options: CorpusOptions): { chunks: CorpusChunk[]; words: string[] } {
  const random = rng(options.seed ?? 20_240_611);
  const words = vocabulary(options.vocabulary ?? 12_000, random);
  const globalRank = zipf(words.length, 1.05, random);
  const topicRank = zipf(150, 0.9, random);
  const chunks: CorpusChunk[] = [];
  for (let doc = 0; doc < options.docs; doc++) {
    // A topic: 150 words drawn from the less common part of the vocabulary.
    const topic = Array.from({ length: 150 }, () => words[200 + Math.floor(random() * 6000)]!);
    const word = () => {
      const roll = random();
      if (roll < 0.3) return FUNCTION_WORDS[Math.floor(random() * FUNCTION_WORDS.length)]!;
      if (roll < 0.62) return topic[topicRank()]!;
      return words[globalRank()]!;
    };
    const sentence = () => {
      const length = 7 + Math.floor(random() * 12);
      const parts = Array.from({ length }, word);
      const first = parts[0]!;
      parts[0] = first[0]!.toUpperCase() + first.slice(1);
      return `${parts.join(' ')}.`;
    };
    let carried = '';
    for (let index = 0; index < options.chunksPerDoc; index++) {
      let content = carried;
      let last = '';
      for (;;) {
        const next = sentence();
        if ((content ? content.length + 1 : 0) + next.length > 500) break;
        content = content ? `${content} ${next}` : next;
        last = next;
        if (content.length > 420) break;
      }
      if (content === carried) content = `${carried} ${sentence()}`.slice(0, 500).trim();
      // The real chunker repeats up to 100 characters of the chunk before.
      carried = last.length <= 100 ? last : '';
      chunks.push({ doc, page: Math.floor(index / 7) + 1, index, content });
    }
  }
  return { chunks, words };
}

const TEMPLATES = [
  (w: string[]) => `What does the document say about ${w.join(' ')}?`,
  (w: string[]) => `How is ${w.slice(0, -1).join(' ')} handled for ${w.at(-1)}?`,
  (w: string[]) => `Which ${w[0]} applies to ${w.slice(1).join(' and ')}?`,
  (w: string[]) => `Explain the rules on ${w.join(', ')}.`,
  (w: string[]) => `When must ${w.slice(0, 2).join(' ')} be ${w.slice(2).join(' ')}?`,
];

/**
 * `count` questions, each made of 3–6 content words of one random chunk (and now and then one
 * unrelated word), in one of a few question templates. The chunk each question came from is
 * returned too, for information: exact search is the reference, not that chunk.
 */
export function makeQuestions(
  chunks: readonly CorpusChunk[],
  words: readonly string[],
  count: number,
  seed = 7_031_977,
): { text: string; source: number }[] {
  const random = rng(seed);
  const stop = new Set(FUNCTION_WORDS);
  return Array.from({ length: count }, () => {
    const source = Math.floor(random() * chunks.length);
    const candidates = [
      ...new Set(
        chunks[source]!.content.toLowerCase()
          .split(/[^a-z]+/)
          .filter((w) => w && !stop.has(w)),
      ),
    ];
    const n = Math.min(candidates.length, 3 + Math.floor(random() * 4));
    const picked: string[] = [];
    while (picked.length < n) {
      const w = candidates[Math.floor(random() * candidates.length)]!;
      if (!picked.includes(w)) picked.push(w);
    }
    if (random() < 0.3) picked.push(words[Math.floor(random() * words.length)]!);
    const template = TEMPLATES[Math.floor(random() * TEMPLATES.length)]!;
    return { text: template(picked), source };
  });
}
