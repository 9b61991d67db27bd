import type { z } from 'zod';
import { CollectionIds, FileIds } from '#shared/contracts/common';
import type { DocumentFilters } from '#shared/contracts/document-metadata';
import type { ChatCompletionRequest, OpenAiMessage } from '#shared/contracts/openai';
import { AppError } from '#shared/errors/app-error';
import type { PastTurn } from '../answer/history';

/** The grounding modes `model` names. */
export const BASE_MODEL = 'kbchat';
const FILES = 'kbchat-files:';
const COLLECTIONS = 'kbchat-collections:';

export interface Grounding {
  fileIds: string[] | undefined;
  collectionIds: string[] | undefined;
}

/** `kbchat`, `kbchat-files:<ids>` or `kbchat-collections:<ids>`; else 404 model_not_found. */
export function groundingOf(model: string): Grounding {
  if (model === BASE_MODEL) return { fileIds: undefined, collectionIds: undefined };
  const ids = (schema: typeof FileIds, rest: string) => {
    const parsed = schema.safeParse(rest);
    return parsed.success ? parsed.data : undefined;
  };
  const fileIds = model.startsWith(FILES) ? ids(FileIds, model.slice(FILES.length)) : undefined;
  if (fileIds) return { fileIds, collectionIds: undefined };
  const collectionIds = model.startsWith(COLLECTIONS)
    ? ids(CollectionIds, model.slice(COLLECTIONS.length))
    : undefined;
  if (collectionIds) return { fileIds: undefined, collectionIds };
  throw new AppError('model_not_found', {
    detail: `The model "${model.slice(0, 100)}" does not exist: use ${BASE_MODEL}, ${FILES}<file id>,… or ${COLLECTIONS}<collection id>,….`,
  });
}

type Message = z.output<typeof OpenAiMessage>;

/** The request's document filters (the `kbchat.filters` extension), for groundedTurn. */
export function filtersOf(body: Pick<z.output<typeof ChatCompletionRequest>, 'kbchat'>): {
  filters?: z.output<typeof DocumentFilters>;
} {
  const filters = body.kbchat?.filters;
  return filters ? { filters } : {};
}

export interface Conversation {
  /** The last user message. */
  question: string;
  /** Earlier user messages, each with the assistant messages that followed it. */
  turns: PastTurn[];
  /** The system and developer messages, joined; undefined when there are none. */
  instructions: string | undefined;
}

const textOf = (message: Message) =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => part.text ?? '').join('');

const invalid = (message: string) =>
  new AppError('invalid_messages', { detail: message, errors: [{ field: 'messages', message }] });

/** The question, the history and the client's instructions of a request; 400/413 if unusable. */
export function conversationOf(
  body: z.output<typeof ChatCompletionRequest>,
  maxPromptChars: number,
): Conversation {
  const messages = body.messages;
  const last = messages[messages.length - 1]!;
  if (last.role !== 'user') throw invalid('The last message must be a user message: the question.');
  const question = textOf(last);
  if (question.trim().length === 0) throw invalid('The question (the last message) is empty.');
  if ([...question].length > maxPromptChars) {
    throw new AppError('prompt_too_long', {
      detail: `The question is longer than ${maxPromptChars} characters.`,
    });
  }
  const instructions: string[] = [];
  const turns: PastTurn[] = [];
  for (const message of messages.slice(0, -1)) {
    const text = textOf(message);
    if (message.role === 'system' || message.role === 'developer') {
      if (text.trim()) instructions.push(text);
    } else if (message.role === 'user') {
      turns.push({ question: text, answer: '', answered: false });
    } else {
      // An assistant message answers the user message before it (one before any is dropped).
      const turn = turns[turns.length - 1];
      if (turn) {
        turn.answer = turn.answer ? `${turn.answer}\n${text}` : text;
        turn.answered = turn.answer.trim().length > 0;
      }
    }
  }
  const joined = instructions.join('\n\n');
  if ([...joined].length > maxPromptChars) {
    throw new AppError('instructions_too_long', {
      detail: `The system messages are longer than ${maxPromptChars} characters together.`,
    });
  }
  return { question, turns, instructions: joined || undefined };
}
