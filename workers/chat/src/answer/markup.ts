/**
 * The original's web client renders the stream as Markdown with HTML enabled, and the stream
 * carries document text (the echoed prompt) and model text (which may quote documents): a PDF
 * holding `<img src=x onerror=…>` would run script there. A `<` that could open a tag, a
 * comment or a declaration becomes the full-width `＜` (U+FF1C): still readable, never markup.
 * A `<` before a space or digit ("a < b", "<5 %") is left alone; entities such as `&lt;` only
 * ever decode to text.
 */
const TAG_OPEN = /<(?=[A-Za-z/!?])/g;

export function neutraliseMarkup(text: string): string {
  return text.replace(TAG_OPEN, '＜');
}

/**
 * The echoed prompt: neutralised, except the prompt's own `<context>` delimiter lines (a
 * document cannot forge them: prompt.ts strips them from document text). Clients, our web app
 * among them, recognise the echo by them; an unknown element carries no script.
 */
export function neutraliseEcho(prompt: string): string {
  return neutraliseMarkup(prompt).replace(/^＜(\/?)context>$/gm, '<$1context>');
}

/**
 * The same over a stream of pieces: a piece ending in `<` keeps it back until the next piece
 * shows what follows it, so a tag split across pieces is caught too.
 */
export function markupNeutraliser() {
  let held = '';
  return {
    push(piece: string): string {
      const text = held + piece;
      held = text.endsWith('<') ? '<' : '';
      return neutraliseMarkup(held ? text.slice(0, -1) : text);
    },
    /** What is still held back, at the end of the stream. */
    flush(): string {
      const rest = held;
      held = '';
      return rest;
    },
  };
}
