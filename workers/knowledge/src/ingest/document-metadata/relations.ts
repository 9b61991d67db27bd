import { DOC_NUMBER_IN_TEXT, docNumberInSentence, REFERENCE_VALUE } from './doc-number';
import { normaliseText } from './text';

export type RelationKindName = 'amends' | 'repeals' | 'replaces' | 'implements';

/** A document the text says this one repeals, replaces, amends or implements. */
export interface DetectedRelation {
  relation: RelationKindName;
  doc_number: string | null;
  title: string | null;
}

/**
 * The clauses by which a document acts on others, each naming the other by 《title》 and/or
 * 文号 (or, in English, by title and reference):
 *
 * - repeals: `…同时废止`, `…予以废止`, `…自本办法施行之日起废止`, `原《…》（…）不再执行`, a
 *   decision `关于废止《…》的决定`;
 * - replaces: `本办法代替《…》`; English `This policy replaces/supersedes the … (REF)`;
 * - amends: `对《…》作如下修改`, a decision `关于修改《…》的决定`; English `This policy amends the …`;
 * - implements: `为贯彻落实《…》（…）`.
 *
 * A document only mentioned (根据《…》, 参照…号文件) is no relation. Names inside 《》 do not
 * count as the clause's words (a title may itself contain 废止).
 */
export function detectRelations(pages: readonly string[]): DetectedRelation[] {
  const text = normaliseText(pages.join('\n\n'));
  const found: DetectedRelation[] = [];
  for (const sentence of text.split(/[。；;\n]/u)) {
    found.push(...chineseClauses(sentence), ...englishClauses(sentence));
  }
  return unique(found);
}

const REPEALS = /(?:同时废止|予以废止|宣布废止|即行废止|一并废止|起废止|废止|不再执行|停止执行)/u;
const REPLACES = /本\p{Script=Han}{0,6}?(?:代替|替代|取代)/u;
const AMENDS = /(?:作如下修改|作出如下修改|修改如下|作如下修订|修订如下)/u;
const IMPLEMENTS =
  /^\s*(?:第[一二三四五六七八九十百零\d]+条)?\s*为(?:进一步|认真|全面)?(?:贯彻落实|贯彻|落实)/u;

/** 《title》 optionally followed by （number）, or a number alone. */
function references(clause: string): { doc_number: string | null; title: string | null }[] {
  const refs: { doc_number: string | null; title: string | null; at: number; end: number }[] = [];
  const titled = /《([^》]{2,100})》\s*(?:[(（]([^)）]{4,40})[)）])?/gu;
  for (const match of clause.matchAll(titled)) {
    const number = match[2] ? firstNumber(match[2]) : null;
    refs.push({
      title: match[1]!.replace(/\s+/g, ''),
      doc_number: number,
      at: match.index,
      end: match.index + match[0].length,
    });
  }
  for (const match of clause.matchAll(DOC_NUMBER_IN_TEXT)) {
    if (refs.some((ref) => match.index >= ref.at && match.index < ref.end)) continue;
    refs.push({ title: null, doc_number: docNumberInSentence(match), at: match.index, end: 0 });
  }
  return refs.sort((a, b) => a.at - b.at).map(({ doc_number, title }) => ({ doc_number, title }));
}

function firstNumber(text: string): string | null {
  const match = new RegExp(DOC_NUMBER_IN_TEXT.source, 'u').exec(text);
  return match ? docNumberInSentence(match) : null;
}

/** The clause's words outside 《》 (a title's words are not the clause's). */
const outsideTitles = (text: string) => text.replace(/《[^》]*》/gu, '《》');

function chineseClauses(sentence: string): DetectedRelation[] {
  const clauses = sentence.split(/[，,]/u);
  const out: DetectedRelation[] = [];
  clauses.forEach((clause, i) => {
    const words = outsideTitles(clause);
    let relation: RelationKindName | null = null;
    // A decision's title says it: 关于废止《…》的决定, 关于修改《…》的决定.
    if (/关于修改《》/u.test(words)) relation = 'amends';
    else if (/关于废止《》/u.test(words)) relation = 'repeals';
    else if (AMENDS.test(words)) relation = 'amends';
    else if (REPLACES.test(words)) relation = 'replaces';
    else if (REPEALS.test(words)) relation = 'repeals';
    else if (IMPLEMENTS.test(words)) relation = 'implements';
    if (!relation) return;
    // 原《…》（…），自本办法施行之日起废止: the names may stand in the clause before.
    let refs = references(clause);
    if (refs.length === 0 && relation !== 'implements' && i > 0) refs = references(clauses[i - 1]!);
    for (const ref of refs) out.push({ relation, ...ref });
  });
  return out;
}

const ENGLISH_CLAUSE =
  /\bthis (?:policy|regulation|procedure|guidance|standard|directive|document) (replaces|supersedes|revokes|repeals|amends|implements) (?:the )?([^.;]+)/i;
const ENGLISH_KIND: Record<string, RelationKindName> = {
  replaces: 'replaces',
  supersedes: 'replaces',
  revokes: 'repeals',
  repeals: 'repeals',
  amends: 'amends',
  implements: 'implements',
};

/** This policy replaces the Homeworking Policy (HR-POL-009). */
function englishClauses(sentence: string): DetectedRelation[] {
  const match = ENGLISH_CLAUSE.exec(sentence);
  if (!match) return [];
  const named = match[2]!.trim();
  const withRef = /^(.*?)\s*\(([^)]+)\)\s*$/.exec(named);
  const title = (withRef ? withRef[1]! : named).trim();
  const reference = withRef ? (REFERENCE_VALUE.exec(withRef[2]!.trim())?.[1] ?? null) : null;
  // A name is a title only when it is capitalised as one (not "the previous arrangements").
  const isTitle = /^[A-Z]/.test(title) && title.split(/\s+/).length <= 12;
  if (!isTitle && !reference) return [];
  return [
    {
      relation: ENGLISH_KIND[match[1]!.toLowerCase()]!,
      doc_number: reference,
      title: isTitle ? title : null,
    },
  ];
}

function unique(relations: DetectedRelation[]): DetectedRelation[] {
  const seen = new Set<string>();
  return relations.filter((r) => {
    const key = `${r.relation}|${r.doc_number ?? ''}|${r.title ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
