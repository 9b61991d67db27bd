// One chat over HTTP, with the time of each step of its stream as the client sees it:
//   open    the first byte: the SSE comment `: open`, written before retrieval starts;
//   prompt  the echoed prompt (the first `content` message, CHAT_ECHO_PROMPT): retrieval done;
//   answer  the first answer message: the model's first token, passed on;
//   end     the stream's end, after `done`.
import type { Service } from './service-calls.ts';

const TIMEOUT_MS = 30_000;

export interface ChatPhases {
  openMs: number;
  promptMs: number | undefined;
  answerMs: number | undefined;
  endMs: number;
  ending: 'done' | 'error' | 'broken';
}

export async function timedChat(service: Service, prompt: string): Promise<ChatPhases> {
  const started = performance.now();
  const since = () => performance.now() - started;
  const res = await fetch(`${service.base}/modulechat/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${service.token}` },
    body: JSON.stringify({ prompt }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.status !== 200 || !res.body) {
    throw new Error(
      `POST /modulechat/chat answered ${res.status}: ${(await res.text()).slice(0, 300)}`,
    );
  }
  const phases: ChatPhases = {
    openMs: 0,
    promptMs: undefined,
    answerMs: undefined,
    endMs: 0,
    ending: 'broken',
  };
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (!phases.openMs) phases.openMs = since();
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (event.startsWith('event: done')) phases.ending = 'done';
      if (!event.startsWith('data: ')) continue;
      const message = JSON.parse(event.slice(6)) as { type: string; content: string };
      if (message.type === 'error') phases.ending = 'error';
      else if (phases.promptMs === undefined && message.content.includes('\n<context>\n')) {
        phases.promptMs = since();
      } else phases.answerMs ??= since();
    }
  }
  phases.endMs = since();
  return phases;
}
