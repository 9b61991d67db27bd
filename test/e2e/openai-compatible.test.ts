// The real `openai` client against `npm run dev`'s stack over real HTTP: the OpenAI-compatible
// endpoint streams an answer with its sources, the client holding an API key.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { makeTextPdf } from '../../dev/fixtures/pdf-builder';
import { createUser, stack, tokenFor, unique, uploadViaApi } from './helpers';

/** The credential integrations use: an API key, made with a login token over HTTP. */
async function bearer(): Promise<string> {
  const user = await createUser();
  const login = await tokenFor(user.username, user.password);
  const res = await fetch(`${stack().baseUrl}/moduleauth/api_key`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${login}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'e2e openai client' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { key: string } }).data.key;
}

describe('the openai client over HTTP', () => {
  it('streams an answer with sources from /modulechat/v1/chat/completions', async () => {
    const token = await bearer();
    const word = unique('Brindlewick').replace('-', '');
    await uploadViaApi(
      token,
      `${word}.pdf`,
      makeTextPdf([
        `${word} harbour rule. Ferries to ${word} harbour leave every 40 minutes from pier 7.`,
      ]),
    );
    const openai = new OpenAI({
      baseURL: `${stack().baseUrl}/modulechat/v1`,
      apiKey: token,
      maxRetries: 0,
    });
    const stream = await openai.chat.completions.create({
      model: 'kbchat',
      messages: [{ role: 'user', content: `How often do ferries leave ${word} harbour?` }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let sources: { file_name: string }[] | undefined;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      sources ??= (chunk as unknown as { sources?: { file_name: string }[] }).sources;
      usage = chunk.usage ?? usage;
    }
    expect(text).toContain('40 minutes');
    expect(sources?.[0]?.file_name).toBe(`${word}.pdf`);
    expect(usage?.total_tokens).toBeGreaterThan(0);
  });
});
