import type { z } from 'zod';
import type { ChatSource } from '#shared/contracts/chat';
import type { FileNow, FileStateQuery } from '#shared/contracts/knowledge-upkeep';
import { knowledgeAsCaller, type ChatCall } from '../call';

type Source = z.output<typeof ChatSource>;
type Now = z.output<typeof FileNow>;
/** What a stored source says of its file (turns stored long ago may lack its collection). */
type Cited = Pick<Source, 'file_id'> & { collection_id?: string | null };

/** Each cited file once, with the collection it was in when cited. */
export function citedFiles(sources: Iterable<Cited>): z.output<typeof FileStateQuery>[] {
  const asked = new Map<string, z.output<typeof FileStateQuery>>();
  for (const source of sources) {
    if (asked.has(source.file_id)) continue;
    asked.set(
      source.file_id,
      source.collection_id
        ? { id: source.file_id, collection_id: source.collection_id }
        : { id: source.file_id },
    );
  }
  return [...asked.values()];
}

/** The sources as stored, each with its file as it stands now when that is known. */
export function withNow<S extends Cited>(
  sources: readonly S[],
  states: ReadonlyMap<string, Now> | undefined,
): (S & { now?: Now })[] {
  if (!states) return [...sources];
  return sources.map((source) => {
    const now = states.get(source.file_id);
    return now ? { ...source, now } : source;
  });
}

/**
 * What knowledge says now of the files these sources cite, asked once for all of them as the
 * caller (a file they can no longer read is only `unavailable`). Undefined when it cannot be
 * asked: a stored conversation is still read, its sources as they were.
 */
export async function filesNow(
  ctx: ChatCall,
  sources: Iterable<Cited>,
): Promise<Map<string, Now> | undefined> {
  const files = citedFiles(sources);
  if (files.length === 0) return new Map();
  try {
    const knowledge = await knowledgeAsCaller(ctx);
    const states = new Map<string, Now>();
    // The contract takes 200 files a call; a conversation rarely cites more.
    for (let at = 0; at < files.length; at += MAX_FILES) {
      const answer = await knowledge.PostFileStates({
        body: { files: files.slice(at, at + MAX_FILES) },
      });
      for (const { id, ...now } of answer) states.set(id, now);
    }
    return states;
  } catch (err) {
    ctx.log.warn('sources read without their state now', { error: String(err) });
    return undefined;
  }
}

const MAX_FILES = 200;
