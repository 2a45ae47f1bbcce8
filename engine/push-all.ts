/**
 * `target.push(...items)` for lists of any length: a spread passes every item as an argument on
 * the stack, which overflows past about 120,000 (a paragraph of 200,000 code spans, 200,000
 * paragraphs).
 */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
