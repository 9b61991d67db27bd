import { authorizeViaAuth } from '../../../shared/auth/authorize-via-auth';
import type { Principal } from '../../../shared/auth/roles';
import { chatService } from '../../../shared/contracts/chat';
import { knowledgeService } from '../../../shared/contracts/knowledge';
import { createModelClient } from '../../../shared/model/client';
import { createModuleApp, moduleName } from '../../../shared/module/module-app';
import { mountService, rpcClient, type ServiceImpl } from '../../../shared/service';
import { chatConfig } from './config';
import { checkEmbeddings } from './health';
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
};

const app = createModuleApp<{ Bindings: ChatEnv }>(CHAT_MODULE);
mountService(app, chatService, impl, {
  authorize: authorizeViaAuth<ChatEnv>((env) => chatConfig(env).verification),
});

export default app;
