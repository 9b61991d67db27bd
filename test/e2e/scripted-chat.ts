// A front for the stack whose chat answers are scripted by the test: the page, the assets and
// every other API call pass through to `npm run dev`'s stack unchanged (same headers, same
// CSP), while `POST /modulechat/chat` streams the next scripted answer token by token, as a
// real model's answer arrives. The offline model only writes extractive answers; this is how
// the tests put tables, code, injections and a 4,000-token answer in front of the page.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { stack } from './helpers';

export interface ScriptedAnswer {
  /** The answer, already cut into the pieces the model streams. */
  tokens: readonly string[];
  /** Without a collection, a source is in the shared one (as the service names it). */
  sources?: readonly {
    file_id: string;
    file_name: string;
    page: number;
    similarity: number;
    collection_id?: string;
    collection_name?: string;
  }[];
  /** Pause after every `burst` tokens (ms); 0 sends as fast as the socket takes them. */
  pauseMs?: number;
  burst?: number;
}

export interface ScriptedChat {
  url: string;
  /** The answer the next chat request gets. */
  answerNext(answer: ScriptedAnswer): void;
  close(): Promise<void>;
}

/** The built-in shared collection, as sources name it. */
const SHARED = { collection_id: '00000000-0000-0000-0000-000000000000', collection_name: 'Shared' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function scriptedChat(): Promise<ScriptedChat> {
  const target = new URL(stack().baseUrl);
  const queue: ScriptedAnswer[] = [];
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url?.startsWith('/modulechat/chat')) {
      void stream(req, res, queue.shift());
      return;
    }
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answerNext: (answer) => void queue.push(answer),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function stream(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  answer: ScriptedAnswer | undefined,
): Promise<void> {
  req.resume(); // the question itself is not needed
  await new Promise((resolve) => req.on('end', resolve));
  if (!req.headers.authorization?.startsWith('Bearer ')) {
    res.writeHead(401, { 'Content-Type': 'text/plain; charset=UTF-8' }).end('Unauthorised');
    return;
  }
  if (!answer) {
    res.writeHead(500).end('no scripted answer');
    return;
  }
  let closed = false;
  res.on('close', () => (closed = true));
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
  res.write(': open\n\n');
  const requestId = crypto.randomUUID();
  const burst = answer.burst ?? 1;
  for (let i = 0; i < answer.tokens.length && !closed; i += 1) {
    const message = { content: answer.tokens[i], request_id: requestId, type: 'content' };
    res.write(`data: ${JSON.stringify(message)}\n\n`);
    if (answer.pauseMs && (i + 1) % burst === 0) await sleep(answer.pauseMs);
  }
  if (closed) return;
  const sources = (answer.sources ?? []).map((source) => ({ ...SHARED, ...source }));
  res.write(`event: sources\ndata: ${JSON.stringify(sources)}\n\n`);
  // As the service's `done`: the mode used and the answer's language.
  const done = { request_id: requestId, mode: 'retrieval', language: 'en' };
  res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
}

/** Cuts a text into pieces of about `size` characters, as a model's tokens arrive. */
export function tokensOf(text: string, size = 4): string[] {
  const chars = [...text];
  const tokens: string[] = [];
  for (let i = 0; i < chars.length; i += size) tokens.push(chars.slice(i, i + size).join(''));
  return tokens;
}
