/**
 * Which of some terms each source holds in any of its items (passages, or sentences). A follow-up's earlier words
 * held anywhere in a source count as held by all of its items, so that the follow-up's own words decide within
 * it: "How much did it cost?" after "Tell me about the Music Sound Interpreter" asks for the slide about its cost,
 * which never names the project, not the title slide, which does. The names a question uses tell the sources
 * about it from the rest the same way.
 */
export function termsHeldBySource<T>(
  items: readonly T[],
  terms: Iterable<string>,
  sourceOf: (item: T) => string,
  holds: (item: T, term: string) => boolean,
): Map<string, Set<string>> {
  const sought = [...terms];
  const held = new Map<string, Set<string>>();
  for (const item of items) {
    const ofSource = held.get(sourceOf(item)) ?? new Set<string>();
    for (const term of sought) if (holds(item, term)) ofSource.add(term);
    held.set(sourceOf(item), ofSource);
  }
  return held;
}
