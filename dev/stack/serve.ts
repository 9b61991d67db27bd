// Runs the local stack (database, relay, model endpoint) as its own process and prints one
// line `KBCHAT_STACK <json>` describing it. Used by the test set-up, which needs the stack in
// plain Node (not through Vite) and as a process it can stop. Fault tests take the database
// away and back through a small control endpoint on loopback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLocalStack } from './local-stack.ts';

const stack = await startLocalStack({
  env: {
    DATABASE_URL: process.env.DATABASE_URL,
    EMBEDDING_DIMENSIONS: process.env.EMBEDDING_DIMENSIONS,
    OCR: process.env.OCR,
    OCR_URL: process.env.OCR_URL,
    // The test stack starts once per project: no warm-up run (6 s of CPU) before the first page.
    OCR_WARM_UP: process.env.OCR_WARM_UP ?? 'off',
  },
  dataDir: process.env.KBCHAT_DATA_DIR || undefined,
});

const control = http.createServer((req, res) => {
  const actions: Record<string, () => Promise<void>> = {
    'POST /database/suspend': () => stack.database.suspend(),
    'POST /database/resume': () => stack.database.resume(),
  };
  const action = actions[`${req.method} ${req.url}`];
  if (!action) {
    res.writeHead(404).end();
    return;
  }
  action().then(
    () => res.writeHead(204).end(),
    (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
  );
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));

process.stdout.write(
  `KBCHAT_STACK ${JSON.stringify({
    databaseUrl: stack.database.databaseUrl,
    databaseProxy: stack.database.proxy,
    modelBaseUrl: stack.model.baseUrl,
    modelControlUrl: stack.model.controlUrl,
    stackControlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    admin: stack.admin,
    workerEnv: stack.workerEnv,
  })}\n`,
);

let closing: Promise<void> | undefined;
const shutdown = () => {
  closing ??= new Promise<void>((resolve) => control.close(() => resolve()))
    .then(() => stack.close())
    .then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// The parent going away (a killed test run) must not leave the stack behind.
process.stdin.on('end', shutdown);
process.stdin.resume();
