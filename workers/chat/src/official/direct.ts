import type { z } from 'zod';
import type { ChatMessage, ChatSource } from '#shared/contracts/chat';
import { sseEvent } from '#shared/service';
import { neutraliseMarkup } from '../answer/markup';
import type { Language } from '../answer/language';
import type { TurnOutcome } from '../answer/turn';
import type { OfficialMatch } from './match';

type Source = z.output<typeof ChatSource>;
type Message = z.output<typeof ChatMessage>;

/** An official answer's citations as chat sources: each cited, in order (1..n). */
export function officialSources(match: OfficialMatch, cited: boolean): Source[] {
  return match.citations.map((citation, i) => ({
    ...citation,
    // A citation is a passage the owners chose, not one retrieved: it carries the match's similarity.
    similarity: match.similarity,
    citation: cited ? i + 1 : null,
  }));
}

/**
 * The stream of an answer given as written (标准口径): the text as content, its citations as
 * sources and `done` with `mode: "official"`. No prompt echo and no model call; the turn's
 * outcome is filled in like any other, so it is stored (and the OpenAI door told) the same way.
 */
export function* givenAsWritten(
  match: OfficialMatch,
  request: { requestId: string; outcome?: TurnOutcome },
  language: Language,
  neutralise: boolean,
) {
  const { requestId, outcome } = request;
  const sources = officialSources(match, true);
  const official = { id: match.id, question: match.question, similarity: match.similarity };
  if (outcome) {
    outcome.mode = 'official';
    outcome.official = official;
    outcome.answer = match.answer;
    outcome.sources = sources;
    outcome.status = 'complete';
  }
  const text: Message = {
    content: neutralise ? neutraliseMarkup(match.answer) : match.answer,
    request_id: requestId,
    type: 'content',
  };
  yield text;
  yield sseEvent('sources', sources);
  yield sseEvent('done', {
    request_id: requestId,
    mode: 'official' as const,
    language,
    official,
  });
}
