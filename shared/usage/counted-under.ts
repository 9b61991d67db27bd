/**
 * The one collection a question's or a search's usage is counted under: the collection it was
 * asked of when it names exactly one, else the one collection every source (or passage found)
 * came from, else none (a question over several collections, or one that found nothing).
 */
export function collectionCountedUnder(
  asked: readonly string[] | null,
  sources: readonly { collection_id: string }[],
): string | null {
  if (asked?.length === 1) return asked[0]!;
  const found = new Set(sources.map((s) => s.collection_id).filter((id) => id !== ''));
  return found.size === 1 ? [...found][0]! : null;
}
