import { createAuthorize } from '#shared/auth/authorize';
import type { Principal } from '#shared/auth/roles';
import { settleSession } from '#shared/auth/session';
import { chatService } from '#shared/contracts/chat';
import { knowledgeService } from '#shared/contracts/knowledge';
import { checkDatabase } from '#shared/db/health';
import { checkSession, keySession } from '#shared/db/request-db';
import { createModelClient } from '#shared/model/client';
import { createModuleApp, moduleName } from '#shared/module/module-app';
import { mountService, rpcClient, type ServiceImpl } from '#shared/service';
import { chat } from './handlers/chat';
import * as conversations from './handlers/conversations';
import { chatConfig } from './config';
import { checkEmbeddings } from './health';
import { DEFAULT_ERROR_TEXTS } from './language';
import { CHAT_MODULE } from './module';
import { streamError } from './openai/chunks';
import { COMPLETIONS_ROUTE, createChatCompletion, listModels } from './openai/handler';

const impl: ServiceImpl<typeof chatService, ChatEnv, Principal> = {
  GetHealth: async (_, ctx) => {
    const config = chatConfig(ctx.env);
    const knowledge = rpcClient(knowledgeService, ctx.env.KNOWLEDGE, { requestId: ctx.requestId });
    const [database, knowledgeHealth, model] = await Promise.all([
      checkDatabase(config.database),
      knowledge.GetHealth(),
      checkEmbeddings(createModelClient(config.model, 10_000), config.model),
    ]);
    return {
      module: moduleName(ctx.env, CHAT_MODULE),
      database,
      knowledge: knowledgeHealth,
      model,
    };
  },

  Chat: chat,
  CreateChatCompletion: createChatCompletion,
  ListModels: listModels,
  GetConversations: conversations.listConversations,
  GetConversation: conversations.getConversation,
  PutConversation: conversations.renameConversation,
  DeleteConversation: conversations.deleteConversation,
  PutMessageFeedback: conversations.putFeedback,
  GetUnhelpfulAnswers: conversations.listUnhelpful,
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
// An OpenAI-style request carries its history (recent turns are kept within the budget).
const COMPLETIONS_MAX_BODY_BYTES = 1024 * 1024;

const app = createModuleApp<{ Bindings: ChatEnv }>(CHAT_MODULE);
mountService(app, chatService, impl, {
  authorize,
  settle: settleSession,
  bodyLimit: (route) => ({
    bytes: route.name === COMPLETIONS_ROUTE ? COMPLETIONS_MAX_BODY_BYTES : MAX_BODY_BYTES,
  }),
  // A stream that breaks in an unforeseen way still ends with the spec's error message.
  // (answer() catches its own failures in the question's language: this is the last resort.)
  // The OpenAI-compatible stream ends with its protocol's error line instead.
  onStreamError: (err, { route, requestId }) =>
    route === COMPLETIONS_ROUTE
      ? streamError(err)
      : {
          content: DEFAULT_ERROR_TEXTS.en.model_failed,
          request_id: requestId ?? '',
          type: 'error',
          code: 'model_failed',
        },
});

export default app;
