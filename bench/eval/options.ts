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

Both:
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
}

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

  if (values.url === undefined) {
    if (values.questions || values.token || values['allow-remote']) {
      throw new Error(`--questions, --token and --allow-remote need --url\n\n${USAGE}`);
    }
    return options;
  }
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    throw new Error(`--url is not a URL: "${values.url}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`--url must be http:// or https://, got "${values.url}"`);
  }
  if (!isLoopback(url) && !values['allow-remote']) {
    throw new Error(
      `refusing ${url.host}: not loopback. The evaluation sends every question (${MODES.length} ` +
        'modes) to the service; add --allow-remote if that is what you want.',
    );
  }
  if (!values.questions) throw new Error(`--url needs --questions <file>\n\n${USAGE}`);
  options.operator = {
    url: url.origin + url.pathname.replace(/\/+$/, ''),
    questions: path.resolve(values.questions),
    token: values.token,
    allowRemote: values['allow-remote']!,
  };
  return options;
}
