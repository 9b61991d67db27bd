// An operator's own questions: a JSON file read and validated, turned into evaluation items,
// and checked against the files the service holds (a misspelt file name would otherwise
// count as a retrieval miss).
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { isMostlyCjk } from '../../dev/stack/offline-model/lexical.ts';
import type { StoredFile } from './knowledge-api.ts';
import type { ExpectedLocation } from './metrics.ts';
import type { EvalItem } from './scoring.ts';

const Location = z
  .object({
    file_name: z.string().min(1).optional(),
    file_id: z.string().min(1).optional(),
    page: z
      .union([z.number().int().positive(), z.array(z.number().int().positive()).min(1)])
      .optional(),
  })
  .strict()
  .refine((l) => (l.file_name === undefined) !== (l.file_id === undefined), {
    message: 'give exactly one of file_name and file_id',
  });

const Question = z
  .object({
    id: z.string().min(1).optional(),
    question: z.string().trim().min(1).max(8000),
    /** null or absent: nothing answers it, so the chat should refuse. */
    expected: z
      .union([Location, z.array(Location).min(1)])
      .nullable()
      .optional(),
    category: z.string().min(1).optional(),
    language: z.string().min(1).optional(),
  })
  .strict();

export const OperatorQuestions = z.array(Question).min(1);

/** Parses the file's JSON into items; throws a readable Error naming each bad field. */
export function operatorItems(json: unknown): EvalItem[] {
  const parsed = OperatorQuestions.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues
      .slice(0, 20)
      .map((issue) => `  [${issue.path.join('.')}] ${issue.message}`);
    throw new Error(`the questions file is not valid:\n${lines.join('\n')}`);
  }
  return parsed.data.map((q, index) => {
    const locations =
      q.expected == null ? [] : Array.isArray(q.expected) ? q.expected : [q.expected];
    const expected: ExpectedLocation[] = locations.map((l) => ({
      ...(l.file_id !== undefined ? { file_id: l.file_id } : { file_name: l.file_name! }),
      ...(l.page === undefined ? {} : { pages: Array.isArray(l.page) ? l.page : [l.page] }),
    }));
    return {
      id: q.id ?? `q${index + 1}`,
      language: q.language ?? (isMostlyCjk(q.question) ? 'zh' : 'en'),
      category: q.category ?? (expected.length ? 'answerable' : 'no_answer'),
      question: q.question,
      expected,
    };
  });
}

export async function readOperatorItems(file: string): Promise<EvalItem[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  return operatorItems(json);
}

/** Expected files the service does not hold, and pages beyond a file's end. */
export function unknownLocations(
  items: readonly EvalItem[],
  files: readonly StoredFile[],
): string[] {
  const problems: string[] = [];
  for (const item of items) {
    for (const e of item.expected) {
      const matching = files.filter((f) =>
        e.file_id !== undefined ? f.id === e.file_id : f.name === e.file_name,
      );
      const label = e.file_id ?? e.file_name;
      if (matching.length === 0) {
        problems.push(`${item.id}: the service holds no file ${label}`);
        continue;
      }
      const pages = Math.max(...matching.map((f) => f.pages));
      const beyond = e.pages?.filter((p) => p > pages) ?? [];
      if (beyond.length)
        problems.push(`${item.id}: ${label} has ${pages} pages, not page ${beyond.join(', ')}`);
    }
  }
  return problems;
}
