// Direct calls to the stack's offline model endpoint, with nothing in between: the floors of
// the routes that call the model.
const TIMEOUT_MS = 30_000;

/**
 * The question's embedding as the knowledge worker asks for it (the openai SDK's request:
 * the configured model and dimensions, base64 float32), decoded to numbers.
 */
export async function embedQuestion(modelBase: string, text: string): Promise<number[]> {
  const res = await fetch(`${modelBase}/v1/embeddings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      model: 'text-embedding-3-small',
      input: [text],
      dimensions: 1536,
      encoding_format: 'base64',
    }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`embeddings answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { data: { embedding: string }[] };
  const bytes = Buffer.from(body.data[0]!.embedding, 'base64');
  return Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
}

/** The last chat completion request the model received, exactly as the chat worker sent it. */
export async function lastChatRequest(modelBase: string): Promise<unknown> {
  const res = await fetch(`${modelBase}/_control/requests?path=/v1/chat/completions`, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const recorded = (await res.json()) as { body: unknown }[];
  const last = recorded.at(-1);
  if (!last) throw new Error('the model received no chat completion request');
  return last.body;
}

/** Forgets recorded requests, so that reading the last one stays cheap. */
export async function resetModelRecords(modelBase: string): Promise<void> {
  const res = await fetch(`${modelBase}/_control/reset`, {
    method: 'POST',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await res.arrayBuffer();
}

/** Sends a (streaming) chat completion request and times its first content token. */
export async function modelFirstToken(modelBase: string, body: unknown): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${modelBase}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer local-offline-model' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.status !== 200 || !res.body) throw new Error(`chat completions answered ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let firstMs: number | undefined;
  // Read to the end, as the worker does, so that the connection is free for the next call.
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (firstMs !== undefined) continue;
    buffer += value;
    let end: number;
    while (firstMs === undefined && (end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!event.startsWith('data: {')) continue;
      const chunk = JSON.parse(event.slice(6)) as { choices: { delta?: { content?: string } }[] };
      if (chunk.choices[0]?.delta?.content) firstMs = performance.now() - started;
    }
  }
  if (firstMs === undefined) throw new Error('the model streamed no content');
  return firstMs;
}
