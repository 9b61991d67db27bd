/**
 * How a method name becomes an HTTP method and a route path (spec 4.2, "HTTP method by
 * method-name prefix" and "Route path generation").
 *
 * The leading verb is one of Get, List, Post, Create, Put, Update, Delete. It only counts as a
 * verb when the next character is not a lowercase letter, so `Getaway`, `Listen` and `Posting`
 * are ordinary names (POST /getaway …), while `GetUser`, `Get2FA` and a bare `Get` start with
 * the verb `Get`.
 *
 * Route pattern 0 (default) turns what follows the verb into snake_case by these word rules:
 * - a capital starts a new word: `XyByZ` → xy, by, z;
 * - a run of capitals is one word (an acronym); its last capital starts the next word when a
 *   lowercase letter follows: `HTTPLogs` → http, logs; `UserByID` → user, by, id;
 * - an acronym followed by a lone `s` keeps it as its plural: `UserIDs` → user, ids;
 * - digits stick to the word before them: `V2Files` → v2, files; `Base64Encode` → base64, encode;
 *   a leading digit run is a word of its own, with any lowercase letters after it: `2FACodes` →
 *   2, fa, codes; `3dModels` → 3d, models.
 * Route pattern 1 only lowercases what follows the verb: `UserByID` → userbyid.
 *
 * A name that is only a verb (`Get`, `Post`, …) maps to the module root `/`: the verb alone
 * names the resource collection of the module, REST style (GET /moduleknowledge).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type RoutePattern = 0 | 1;

const VERBS: ReadonlyArray<readonly [verb: string, method: HttpMethod]> = [
  ['Get', 'GET'],
  ['List', 'GET'],
  ['Post', 'POST'],
  ['Create', 'POST'],
  ['Put', 'PUT'],
  ['Update', 'PUT'],
  ['Delete', 'DELETE'],
];

// Alternatives in priority order; together they match every letter and digit of a name.
const WORD = /[A-Z]{2,}s(?![a-z])[0-9]*|[A-Z]+(?![a-z])[0-9]*|[A-Z]?[a-z]+[0-9]*|[0-9]+[a-z]*/g;

/** The leading verb of a method name and the rest of it; `verb` is undefined when there is none. */
export function splitVerb(name: string): { verb: string | undefined; rest: string } {
  for (const [verb] of VERBS) {
    if (!name.startsWith(verb)) continue;
    const next = name.charAt(verb.length);
    if (next === '' || !/[a-z]/.test(next)) return { verb, rest: name.slice(verb.length) };
  }
  return { verb: undefined, rest: name };
}

export function httpMethodOf(name: string): HttpMethod {
  const { verb } = splitVerb(name);
  return VERBS.find(([v]) => v === verb)?.[1] ?? 'POST';
}

/** The words of a camel-case name, lowercased, by the rules in the module comment. */
export function wordsOf(name: string): string[] {
  return (name.match(WORD) ?? []).map((word) => word.toLowerCase());
}

export function snakeCase(name: string): string {
  return wordsOf(name).join('_');
}

/** The route path of a method, relative to the module prefix. */
export function routePathOf(name: string, pattern: RoutePattern = 0): string {
  const { rest } = splitVerb(name);
  if (rest === '') return '/';
  return '/' + (pattern === 1 ? rest.toLowerCase() : snakeCase(rest));
}
