import { chatService } from '#shared/contracts/chat';
import { defineWorker } from '#shared/module/define-worker';
import { errorText } from '#shared/errors/catalogue';
import { chatConfig } from './config';
import { MCP_MAX_BODY_BYTES, MCP_ROUTE } from './handlers/mcp';
import { COMPLETIONS_ROUTE } from './handlers/openai';
import { CHAT_MODULE } from './module';
import { streamError } from './openai/chunks';
import { chatImpl } from './service';

// A chat body is a prompt (CHAT_MAX_PROMPT_CHARS, at most 4 bytes each, 6 when escaped) and
// file ids (4,000 characters): anything bigger is refused unread.
const MAX_BODY_BYTES = 64 * 1024;
// An OpenAI-style request carries its history (recent turns are kept within the budget).
const COMPLETIONS_MAX_BODY_BYTES = 1024 * 1024;

// The session check rides along with the call's first statement (a chat stores its turn); a
// call that runs none settles it with the check alone.
const worker = defineWorker<ChatEnv, typeof chatService>({
  module: CHAT_MODULE,
  service: chatService,
  impl: chatImpl,
  settings: (env) => chatConfig(env),
  bodyLimit: (route) => ({
    bytes:
      route.name === COMPLETIONS_ROUTE
        ? COMPLETIONS_MAX_BODY_BYTES
        : route.name === MCP_ROUTE
          ? MCP_MAX_BODY_BYTES
          : MAX_BODY_BYTES,
  }),
  // A stream that breaks in an unforeseen way still ends with the spec's error message.
  // (answer() catches its own failures in the question's language: this is the last resort.)
  // The OpenAI-compatible stream ends with its protocol's error line instead.
  onStreamError: (err, { route, requestId }) =>
    route === COMPLETIONS_ROUTE
      ? streamError(err)
      : {
          content: errorText('model_failed', 'en'),
          request_id: requestId ?? '',
          type: 'error',
          code: 'model_failed',
        },
});

export default worker.app;
