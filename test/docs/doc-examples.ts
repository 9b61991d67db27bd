import { parseExpected, type Expected } from './expected-output.ts';

/**
 * The examples a Markdown document runs: every ```sh block right after a `<!-- run -->`
 * comment. Within a block, each command (with its `\` continuations) is one step, and the
 * comment lines right after it that start like an output (`{`, `[`, `data:`, `event:`, `:`,
 * `…`) are what the docs say it prints. Other comments are prose.
 */
export interface DocExample {
  /** 1-based line of the command in the document. */
  line: number;
  command: string;
  expected: Expected | undefined;
}

export interface DocExamples {
  steps: DocExample[];
  /** Lines of ```sh blocks that call curl but are not marked to run (the docs must run them). */
  unmarkedCurl: number[];
}

const RUN_MARK = /^<!--\s*run\s*-->$/;
const OUTPUT_START = /^(\{|\[|data:|event:|:|…)/;
/** An output's further lines: the same starts, an indented line, or a closing bracket. */
const OUTPUT_GOES_ON = /^(\{|\[|data:|event:|:|…|\s|\}|\]|")/;

export function docExamples(markdown: string): DocExamples {
  const lines = markdown.split('\n');
  const steps: DocExample[] = [];
  const unmarkedCurl: number[] = [];
  let marked = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (RUN_MARK.test(line.trim())) {
      marked = true;
      continue;
    }
    const fence = /^(\s*)```(\w*)/.exec(line);
    if (!fence) {
      if (line.trim() !== '') marked = false;
      continue;
    }
    const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
    const body = lines.slice(i + 1, end === -1 ? lines.length : end);
    if (fence[2] === 'sh') {
      if (marked) steps.push(...stepsOf(body, i + 2, fence[1]!.length));
      else if (body.some((l) => /\bcurl\b/.test(l))) unmarkedCurl.push(i + 1);
    }
    marked = false;
    i = end === -1 ? lines.length : end;
  }
  return { steps, unmarkedCurl };
}

function stepsOf(body: readonly string[], firstLine: number, indent: number): DocExample[] {
  const steps: DocExample[] = [];
  let command: string[] = [];
  let commandLine = 0;
  let output: string[] | undefined;
  const finish = () => {
    if (command.length > 0) {
      steps.push({
        line: commandLine,
        command: command.join('\n'),
        expected: output && output.length > 0 ? parseExpected(output) : undefined,
      });
    }
    command = [];
    output = undefined;
  };
  body.forEach((raw, n) => {
    const line = raw.slice(indent);
    const comment = /^#(?: (.*))?$/.exec(line.trimEnd());
    const continuing = command.length > 0 && command.at(-1)!.endsWith('\\') && !output;
    if (continuing) {
      command.push(line);
      return;
    }
    if (comment) {
      const text = comment[1] ?? '';
      const more = output ? OUTPUT_GOES_ON.test(text) : OUTPUT_START.test(text);
      if (command.length > 0 && more) (output ??= []).push(text);
      else finish();
      return;
    }
    if (line.trim() === '') {
      finish();
      return;
    }
    finish();
    command = [line];
    commandLine = firstLine + n;
  });
  finish();
  return steps;
}
