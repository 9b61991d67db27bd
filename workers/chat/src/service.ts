import type { Principal } from '#shared/auth/roles';
import type { chatService } from '#shared/contracts/chat';
import type { ServiceImpl } from '#shared/service';
import { chat } from './handlers/chat';
import * as conversations from './handlers/conversations';
import * as gaps from './handlers/gaps';
import * as officialAnswers from './handlers/official-answers';
import * as review from './handlers/review';
import * as usage from './handlers/usage';
import { health } from './handlers/health';
import { deleteMcp, getMcp, postMcp } from './handlers/mcp';
import { createChatCompletion, listModels } from './handlers/openai';
import { exportConversation } from './record/export';

/** The chat service: each declared method's handler, the same over HTTP and RPC. */
export const chatImpl: ServiceImpl<typeof chatService, ChatEnv, Principal> = {
  GetHealth: health,
  Chat: chat,
  CreateChatCompletion: createChatCompletion,
  ListModels: listModels,
  PostMcp: postMcp,
  GetMcp: getMcp,
  DeleteMcp: deleteMcp,
  GetConversations: conversations.listConversations,
  GetConversation: conversations.getConversation,
  GetConversationExport: exportConversation,
  PutConversation: conversations.renameConversation,
  DeleteConversation: conversations.deleteConversation,
  PutMessageFeedback: conversations.putFeedback,
  GetUnhelpfulAnswers: conversations.listUnhelpful,
  ...review,
  ...officialAnswers,
  ...gaps,
  ...usage,
};
