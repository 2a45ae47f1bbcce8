import { parseDocument } from 'htmlparser2';
import type { Document } from 'domhandler';
import { placeholder } from './region.js';

/**
 * One region of HTML as a tree: its HTML pieces joined, with each Markdown piece between them
 * standing as a placeholder element that names its index. Blocks are joined by a line break,
 * inline pieces by nothing.
 */
export function parseRegion<T>(nodes: readonly T[], htmlOf: (node: T) => string | null, separator: string): Document {
  const source = nodes.map((node, index) => htmlOf(node) ?? placeholder(index)).join(separator);
  return parseDocument(source, { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true });
}
