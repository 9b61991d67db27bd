import { startOfflineModel } from './offline-model.ts';

export interface RunningModel {
  /** MODEL_BASE_URL for the workers; '' means the SDK default (OpenAI). */
  baseUrl: string;
  /** MODEL_API_KEY for the workers; '' leaves the configured secret in charge. */
  apiKey: string;
  offline: boolean;
  /** The offline endpoint's test controls; '' for a real provider. */
  controlUrl: string;
  close(): Promise<void>;
}

/**
 * The model endpoint of the local stack: the configured provider when MODEL_BASE_URL or an
 * API key is set, otherwise the offline OpenAI-compatible server on loopback.
 */
export async function startModel(env: NodeJS.ProcessEnv): Promise<RunningModel> {
  const configured = env.MODEL_BASE_URL || env.MODEL_API_KEY || env.OPENAI_API_KEY;
  if (configured) {
    return {
      baseUrl: env.MODEL_BASE_URL ?? '',
      apiKey: '',
      offline: false,
      controlUrl: '',
      close: async () => {},
    };
  }
  const server = await startOfflineModel({
    dimensions: Number(env.EMBEDDING_DIMENSIONS) || undefined,
    // Benchmarks set 0 to measure the service's own overhead (a zero-latency model).
    chunkDelayMs: env.OFFLINE_MODEL_CHUNK_DELAY_MS
      ? Number(env.OFFLINE_MODEL_CHUNK_DELAY_MS)
      : undefined,
  });
  return {
    baseUrl: server.baseUrl,
    // Any key works with the offline server; the SDK refuses to start without one.
    apiKey: 'local-offline-model',
    offline: true,
    controlUrl: server.controlUrl,
    close: () => server.close(),
  };
}
