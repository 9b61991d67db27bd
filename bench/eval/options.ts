// Command-line options of `npm run eval`, validated; the usage text is the reference.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MODES, type Mode } from './knowledge-api.ts';

export const USAGE = `npm run eval [-- options]

Without --url: starts an isolated local stack (fresh data folder, offline model), uploads the
evaluation corpus (bench/eval/documents/) and asks the built-in questions (bench/eval/questions-*.ts).

With --url: asks your own questions of a running service; nothing is uploaded.
  --url <base>          the service, e.g. http://127.0.0.1:8787 (loopback only unless --allow-remote)
  --questions <file>    JSON: [{"question": "…", "expected": {"file_name": "a.pdf", "page": 3}}, …]
                        expected: {file_name | file_id, page?: n | [n, …]}, a list of them, or null
                        (nothing answers: the chat should refuse); optional "id", "category", "language"
  --token <token>       a bearer token; or set KBCHAT_TOKEN, or KBCHAT_USERNAME and KBCHAT_PASSWORD
  --allow-remote        allow a non-loopback --url

With --collection: runs a collection's saved test set (the retrieval test screen's) on a running
service, through POST /moduleknowledge/retrieval_test_run; nothing is uploaded.
  --collection <id>     the collection
  --url <base>          the service (default http://127.0.0.1:8787, the local dev stack)
  --username <name>     with --password: log in as them (default the dev stack's admin /
  --password <secret>   admin-password); or --token, KBCHAT_TOKEN, KBCHAT_USERNAME/KBCHAT_PASSWORD
  --top <n>             results searched per question, 1–50 (default 10)

All:
  --threshold <x>       the chat's similarity threshold for refusals (default 0.5, CHAT_MIN_SIMILARITY)
  --modes <list>        comma-separated, from vector,hybrid,keyword (default all three)
  --out <file>          the full results as JSON (default bench-results/eval.json)`;

export interface EvalOptions {
  threshold: number;
  modes: Mode[];
  out: string;
  operator?: {
    url: string;
    questions: string;
    token?: string;
    allowRemote: boolean;
  };
  /** --collection: the collection's saved set on a running service. */
  collection?: CollectionTarget;
}

export interface CollectionTarget {
  id: string;
  url: string;
  top: number;
  /** A bearer token; else logged in with username and password. */
  token?: string;
  username: string;
  password: string;
}

/** The local dev stack and the first super admin `npm run dev` makes (README "Set up"). */
export const DEV_STACK = {
  url: 'http://127.0.0.1:8787',
  username: 'admin',
  password: 'admin-password',
};

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname);
}

/** Throws an Error whose message is meant for the user (with the usage where it helps). */
export function parseOptions(argv: readonly string[], root: string): EvalOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      url: { type: 'string' },
      questions: { type: 'string' },
      token: { type: 'string' },
      'allow-remote': { type: 'boolean', default: false },
      threshold: { type: 'string', default: '0.5' },
      modes: { type: 'string', default: MODES.join(',') },
      out: { type: 'string', default: path.join(root, 'bench-results', 'eval.json') },
      collection: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      top: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  if (values.help) throw new Error(USAGE);
  if (positionals.length) throw new Error(`unexpected argument "${positionals[0]}"\n\n${USAGE}`);

  const threshold = Number(values.threshold);
  if (!Number.isFinite(threshold) || threshold < -1 || threshold > 1) {
    throw new Error(`--threshold must be a number from -1 to 1, got "${values.threshold}"`);
  }
  const modes = values.modes!.split(',').map((m) => m.trim());
  const unknown = modes.find((m) => !(MODES as readonly string[]).includes(m));
  if (unknown !== undefined || modes.length === 0) {
    throw new Error(`--modes takes a list from ${MODES.join(', ')}; got "${values.modes}"`);
  }
  const options: EvalOptions = {
    threshold,
    modes: MODES.filter((m) => modes.includes(m)),
    out: path.resolve(values.out!),
  };

  if (values.collection !== undefined) {
    options.collection = collectionTarget(values);
    return options;
  }
  if (values.username || values.password || values.top) {
    throw new Error(`--username, --password and --top need --collection\n\n${USAGE}`);
  }
  if (values.url === undefined) {
    if (values.questions || values.token || values['allow-remote']) {
      throw new Error(`--questions, --token and --allow-remote need --url\n\n${USAGE}`);
    }
    return options;
  }
  const url = serviceUrl(values.url);
  checkRemote(url, values['allow-remote']!);
  if (!values.questions) throw new Error(`--url needs --questions <file>\n\n${USAGE}`);
  options.operator = {
    url: url.origin + url.pathname.replace(/\/+$/, ''),
    questions: path.resolve(values.questions),
    token: values.token,
    allowRemote: values['allow-remote']!,
  };
  return options;
}

function serviceUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--url is not a URL: "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`--url must be http:// or https://, got "${value}"`);
  }
  return url;
}

function checkRemote(url: URL, allowRemote: boolean): void {
  if (!isLoopback(url) && !allowRemote) {
    throw new Error(
      `refusing ${url.host}: not loopback. The evaluation sends every question (${MODES.length} ` +
        'modes) to the service; add --allow-remote if that is what you want.',
    );
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function collectionTarget(values: {
  collection?: string;
  url?: string;
  questions?: string;
  token?: string;
  username?: string;
  password?: string;
  top?: string;
  'allow-remote'?: boolean;
}): CollectionTarget {
  if (!UUID.test(values.collection!)) {
    throw new Error(`--collection takes a collection id, got "${values.collection}"`);
  }
  if (values.questions) throw new Error('--questions and --collection exclude each other');
  const url = serviceUrl(values.url ?? DEV_STACK.url);
  checkRemote(url, values['allow-remote'] ?? false);
  const top = Number(values.top ?? '10');
  if (!Number.isInteger(top) || top < 1 || top > 50) {
    throw new Error(`--top must be a whole number from 1 to 50, got "${values.top}"`);
  }
  if ((values.username === undefined) !== (values.password === undefined)) {
    throw new Error('--username and --password go together');
  }
  const token = values.token ?? (values.username ? undefined : process.env.KBCHAT_TOKEN);
  return {
    id: values.collection!.toLowerCase(),
    url: url.origin + url.pathname.replace(/\/+$/, ''),
    top,
    ...(token ? { token } : {}),
    username: values.username ?? process.env.KBCHAT_USERNAME ?? DEV_STACK.username,
    password: values.password ?? process.env.KBCHAT_PASSWORD ?? DEV_STACK.password,
  };
}
