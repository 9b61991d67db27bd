import { createAuthorize, tokenOf } from '../../../shared/auth/authorize';
import type { Principal } from '../../../shared/auth/roles';
import { settleSession } from '../../../shared/auth/session';
import { chatService } from '../../../shared/contracts/chat';
import { knowledgeService } from '../../../shared/contracts/knowledge';
import { checkSession, keySession } from '../../../shared/db/request-db';
import { AppError } from '../../../shared/errors/app-error';
import { createModelClient } from '../../../shared/model/client';
import { createModuleApp, moduleName } from '../../../shared/module/module-app';
import { mountService, rpcClient, type ServiceImpl } from '../../../shared/service';
import { answer, startRetrieval } from './answer';
import { chatConfig } from './config';
import { checkEmbeddings } from './health';
import { DEFAULT_ERROR_TEXTS } from './language';
import { CHAT_MODULE } from './module';

const impl: ServiceImpl<typeof chatService, ChatEnv, Principal> = {
  GetHealth: async (_, ctx) => {
    const config = chatConfig(ctx.env);
    const knowledge = rpcClient(knowledgeService, ctx.env.KNOWLEDGE, { requestId: ctx.requestId });
    const [knowledgeHealth, model] = await Promise.all([
      knowledge.GetHealth(),
      checkEmbeddings(createModelClient(config.model, 10_000), config.model),
    ]);
    return { module: moduleName(ctx.env, CHAT_MODULE), knowledge: knowledgeHealth, model };
  },

  Chat: async ({ body }, ctx) => {
    const config = chatConfig(ctx.env);
    if ([...body.prompt].length > config.answer.maxPromptChars) {
      throw new AppError(
        413,
        'prompt_too_long',
        `The prompt is longer than ${config.answer.maxPromptChars} characters.`,
      );
    }
    const requestId = ctx.requestId ?? crypto.randomUUID();
    // Knowledge applies the same token rules to the caller's own token.
    const token = ctx.http
      ? await tokenOf({ caller: { transport: 'http', context: ctx.http } })
      : '';
    const knowledge = rpcClient(knowledgeService, ctx.env.KNOWLEDGE, {
      identity: { token },
      requestId,
    });
    // Retrieval starts now, while the token's session is settled and the stream opens.
    const retrieval = startRetrieval(
      knowledge,
      body.prompt,
      body.file_id,
      body.collection_id,
      config.answer,
    );
    return answer(
      { prompt: body.prompt, retrieval, requestId, signal: ctx.signal, log: ctx.log },
      {
        model: createModelClient(config.model, config.answer.modelTimeoutMs),
        chatModel: config.model.chatModel,
        settings: config.answer,
      },
    );
  },
};

// The session check rides along with the call's first statement (a chat stores its turn); a
// call that runs none settles it with the check alone.
const authorize = createAuthorize<ChatEnv>({
  verification: (env) => chatConfig(env).verification,
  checkSession: (access, claim) => checkSession(chatConfig(access.env).database, claim),
  resolveKey: (access, hash) => keySession(chatConfig(access.env).database, hash),
});

// A chat body is a prompt (CHAT_MAX_PROMPT_CHARS, at most 4 bytes each, 6 when escaped) and
// file ids (4,000 characters): anything bigger is refused unread.
const MAX_BODY_BYTES = 64 * 1024;

const app = createModuleApp<{ Bindings: ChatEnv }>(CHAT_MODULE);
mountService(app, chatService, impl, {
  authorize,
  settle: settleSession,
  bodyLimit: () => ({ bytes: MAX_BODY_BYTES }),
  // A stream that breaks in an unforeseen way still ends with the spec's error message.
  // (answer() catches its own failures in the question's language: this is the last resort.)
  onStreamError: (_err, { requestId }) => ({
    content: DEFAULT_ERROR_TEXTS.en.model_failed,
    request_id: requestId ?? '',
    type: 'error',
    code: 'model_failed',
  }),
});

export default app;
