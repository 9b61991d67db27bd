// The SQL functions the migrations define, as they stand after the last migration, and the
// files that hold each one's current source (db/functions/*.sql of the worker that owns it, or
// shared/db/functions/ for the session check every worker runs). A reader sees what runs
// without reading the migration history; dev/sql-functions.test.ts checks the two agree.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export const FUNCTION_FOLDERS = [
  'shared/db/functions',
  'workers/auth/src/db/functions',
  'workers/knowledge/src/db/functions',
  'workers/chat/src/db/functions',
];

export interface FunctionSource {
  name: string;
  /** The CREATE FUNCTION statement, as written. */
  statement: string;
  /** The comment lines written right before it (what it does, why). */
  comment: string;
  /** Where it comes from: the migration that last defined it, or the source file. */
  file: string;
}

const CREATE = /^CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+([a-z_][a-z0-9_]*)\s*\(/im;
const DROP = /^DROP\s+FUNCTION\s+(?:IF\s+EXISTS\s+)?([a-z_][a-z0-9_]*)\b/gim;

/** Every function alive after the last migration, with the statement that last defined it. */
export async function functionsFromMigrations(): Promise<Map<string, FunctionSource>> {
  const folder = path.join(root, 'migrations');
  const names = (await readdir(folder)).filter((name) => name.endsWith('.sql')).sort();
  const live = new Map<string, FunctionSource>();
  for (const name of names) {
    const text = await readFile(path.join(folder, name), 'utf8');
    for (const chunk of text.split('--> statement-breakpoint')) {
      for (const drop of chunk.matchAll(DROP)) live.delete(drop[1]!);
      const statement = withoutLeadingComments(chunk);
      const create = CREATE.exec(statement);
      if (create) {
        live.set(create[1]!, {
          name: create[1]!,
          statement,
          comment: leadingComments(chunk),
          file: `migrations/${name}`,
        });
      }
    }
  }
  return live;
}

/** The function source files, by function name (the file's name). */
export async function functionsFromSources(): Promise<Map<string, FunctionSource>> {
  const found = new Map<string, FunctionSource>();
  for (const folder of FUNCTION_FOLDERS) {
    const files = await readdir(path.join(root, folder)).catch(() => [] as string[]);
    for (const file of files.filter((name) => name.endsWith('.sql'))) {
      const text = await readFile(path.join(root, folder, file), 'utf8');
      found.set(file.replace(/\.sql$/, ''), {
        name: file.replace(/\.sql$/, ''),
        statement: withoutLeadingComments(text),
        comment: leadingComments(text),
        file: `${folder}/${file}`,
      });
    }
  }
  return found;
}

/** The same statement whatever its spacing: runs of whitespace as one space. */
export const normalised = (statement: string) => statement.replace(/\s+/g, ' ').trim();

function leadingComments(text: string): string {
  const lines: string[] = [];
  for (const line of text.trim().split('\n')) {
    if (!line.trim().startsWith('--')) break;
    lines.push(line);
  }
  return lines.join('\n');
}

function withoutLeadingComments(text: string): string {
  const lines = text.split('\n');
  while (lines.length > 0 && (lines[0]!.trim() === '' || lines[0]!.trim().startsWith('--'))) {
    lines.shift();
  }
  return lines.join('\n').trim();
}
