// Runs the local stack (database, relay, model endpoint) as its own process and prints one
// line `KBCHAT_STACK <json>` describing it. Used by the test set-up, which needs the stack in
// plain Node (not through Vite) and as a process it can stop.
import { startLocalStack } from './local-stack.ts';

const stack = await startLocalStack({
  env: {
    DATABASE_URL: process.env.DATABASE_URL,
    EMBEDDING_DIMENSIONS: process.env.EMBEDDING_DIMENSIONS,
  },
  dataDir: process.env.KBCHAT_DATA_DIR || undefined,
});
process.stdout.write(
  `KBCHAT_STACK ${JSON.stringify({
    databaseUrl: stack.database.databaseUrl,
    databaseWsProxy: stack.database.wsProxy,
    modelBaseUrl: stack.model.baseUrl,
    modelControlUrl: stack.model.controlUrl,
    admin: stack.admin,
    workerEnv: stack.workerEnv,
  })}\n`,
);

let closing: Promise<void> | undefined;
const shutdown = () => {
  closing ??= stack.close().then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// The parent going away (a killed test run) must not leave the stack behind.
process.stdin.on('end', shutdown);
process.stdin.resume();
