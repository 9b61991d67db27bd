/**
 * A document's title between 书名号, as Chinese writes a title in running text:
 * `《四川省省级机关会议费管理办法》`. A title that already comes wrapped (a document's metadata
 * may keep the marks it was written with) is left as it is, not doubled into 《《…》》. Only a
 * title whose first 《 closes at its very end counts as wrapped: `《条例》与《办法》` names two
 * documents. Marks inside a title being wrapped become single ones, as a title within a title
 * is written: 《关于印发〈会议费管理办法〉的通知》 (common: a notice issuing a rule names it).
 */
export function bookTitle(title: string): string {
  const text = title.trim();
  if (wrapped(text)) return text;
  return `《${text.replace(/《/g, '〈').replace(/》/g, '〉')}》`;
}

/** Whether the 《 at the start of `text` is closed by the 》 at its end. */
function wrapped(text: string): boolean {
  if (!text.startsWith('《') || !text.endsWith('》')) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '《') depth++;
    else if (text[i] === '》') depth--;
    if (depth === 0) return i === text.length - 1;
  }
  return false;
}
