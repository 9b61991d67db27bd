import { AppError } from '../../../shared/errors/app-error';
import { createModelClient } from '../../../shared/model/client';
import { createModuleApp, moduleName } from '../../../shared/module/module-app';
import { chatConfig } from './config';
import { CHAT_MODULE } from './module';

const app = createModuleApp<{ Bindings: ChatEnv }>(CHAT_MODULE);

// Proves the whole path chat depends on: RPC to knowledge (and its database), and the model.
app.get('/health', async (c) => {
  const config = chatConfig(c.env);
  const [knowledge, model] = await Promise.all([
    c.env.KNOWLEDGE.health(),
    checkEmbeddings(createModelClient(config.model, 10_000), config.model),
  ]);
  return c.json({ module: moduleName(c.env, CHAT_MODULE), knowledge, model });
});

async function checkEmbeddings(
  client: ReturnType<typeof createModelClient>,
  settings: { embeddingModel: string; embeddingDimensions: number },
) {
  const started = Date.now();
  try {
    const result = await client.embeddings.create({
      model: settings.embeddingModel,
      input: 'health check',
      dimensions: settings.embeddingDimensions,
    });
    return {
      ok: true,
      latency_ms: Date.now() - started,
      dimensions: result.data[0]?.embedding.length ?? 0,
    };
  } catch (err) {
    throw new AppError(502, 'model_unavailable', 'The model endpoint is unavailable.', {
      cause: err,
    });
  }
}

export default app;
