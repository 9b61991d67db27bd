import type OpenAI from 'openai';
import type { Principal } from '#shared/auth/roles';
import type { ModelSettings } from '#shared/config/model-config';
import { knowledgeService } from '#shared/contracts/knowledge';
import { checkDatabase } from '#shared/db/health';
import { AppError } from '#shared/errors/app-error';
import { createModelClient } from '#shared/model/client';
import { moduleName } from '#shared/module/module-app';
import { rpcClient, type CallContext } from '#shared/service';
import { chatConfig } from '../config';
import { CHAT_MODULE } from '../module';

/** Chat's health: its database, knowledge over RPC (and knowledge's own), and the model. */
export async function health(_: unknown, ctx: CallContext<ChatEnv, Principal>) {
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
    // What answers: the web app marks answers as extracts when this is the offline stand-in.
    model: { ...model, name: config.model.chatModel, offline: config.offlineModel },
  };
}

/** One real embedding call: the model endpoint answers with vectors of the configured size. */
export async function checkEmbeddings(client: OpenAI, settings: ModelSettings) {
  const started = Date.now();
  try {
    const result = await client.embeddings.create({
      model: settings.embeddingModel,
      input: 'health check',
      dimensions: settings.embeddingDimensions,
    });
    return {
      ok: true as const,
      latency_ms: Date.now() - started,
      dimensions: result.data[0]?.embedding.length ?? 0,
    };
  } catch (err) {
    throw new AppError('model_unavailable', {
      detail: 'The model endpoint is unavailable.',
      cause: err,
    });
  }
}
