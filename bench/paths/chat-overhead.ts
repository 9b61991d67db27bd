// Chat's own overhead to the first answer byte: per chat, (first answer message of
// POST /modulechat/chat) − (the model's own first-token time for the same request, sent again
// directly to the model endpoint exactly as the chat worker sent it). Also the stream's first
// byte (`: open`, before retrieval), the echoed prompt (retrieval done), and the retrieval on
// its own over HTTP (GET /moduleknowledge/query with the same text, top 10) for comparison.
import { stats, type Stats } from '../stats.ts';
import { timedChat } from './chat-phases.ts';
import { timed } from './interleaved.ts';
import { lastChatRequest, modelFirstToken, resetModelRecords } from './model-calls.ts';
import { countRoundTrips, type RoundTrips } from './round-trips.ts';
import { query, type Service } from './service-calls.ts';

const WARMUP = 3;
const ROUND_TRIP_CALLS = 5;
const TOP = 10;

export interface ChatOverhead {
  n: number;
  first_stream_byte: Stats;
  prompt_echo: Stats;
  first_answer_byte: Stats;
  stream_end: Stats;
  model_first_token: Stats;
  /** Per chat: first answer byte − the model's first token for the same request. */
  overhead: Stats;
  /** Per chat: (first answer byte − prompt echo) − model first token: the model call's own cost. */
  model_call_overhead: Stats;
  retrieval_http: Stats;
  targets: { overhead_p50: string; overhead_p95: string; met: boolean };
  round_trips: RoundTrips;
}

export async function measureChat(
  service: Service,
  modelBase: string,
  proxyAddress: string,
  questions: string[],
  samples: number,
): Promise<ChatOverhead> {
  const s = {
    open: [] as number[],
    prompt: [] as number[],
    answer: [] as number[],
    end: [] as number[],
    model: [] as number[],
    overhead: [] as number[],
    modelCall: [] as number[],
    retrieval: [] as number[],
  };
  for (let i = -WARMUP; i < samples; i++) {
    const question = questions[(i + questions.length) % questions.length]!;
    await resetModelRecords(modelBase);
    const chat = await timedChat(service, question);
    if (chat.ending !== 'done' || chat.answerMs === undefined || chat.promptMs === undefined) {
      throw new Error(`the chat on "${question}" ended ${chat.ending} without an answer`);
    }
    const model = await modelFirstToken(modelBase, await lastChatRequest(modelBase));
    const retrieval = await timed(() => query(service, question, TOP));
    if (i < 0) continue;
    s.open.push(chat.openMs);
    s.prompt.push(chat.promptMs);
    s.answer.push(chat.answerMs);
    s.end.push(chat.endMs);
    s.model.push(model);
    s.overhead.push(chat.answerMs - model);
    s.modelCall.push(chat.answerMs - chat.promptMs - model);
    s.retrieval.push(retrieval.ms);
  }
  const overhead = stats(s.overhead);
  return {
    n: samples,
    first_stream_byte: stats(s.open),
    prompt_echo: stats(s.prompt),
    first_answer_byte: stats(s.answer),
    stream_end: stats(s.end),
    model_first_token: stats(s.model),
    overhead,
    model_call_overhead: stats(s.modelCall),
    retrieval_http: stats(s.retrieval),
    targets: {
      overhead_p50: 'p50 ≤ 15 ms',
      overhead_p95: 'p95 ≤ 30 ms',
      met: overhead.median_ms <= 15 && overhead.p95_ms <= 30,
    },
    round_trips: await countRoundTrips(
      proxyAddress,
      () => timedChat(service, questions[0]!),
      ROUND_TRIP_CALLS,
    ),
  };
}
