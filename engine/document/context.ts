import type { Definition, FootnoteDefinition as MdastFootnote } from 'mdast';
import type { Features } from '../options.js';
import type { ResourceTracker } from '../resources/tracker.js';
import type { ContentOptions } from '../content/result.js';
import type { Link } from './types.js';

/** What building one document shares across its blocks. */
export interface BuildContext {
  features: Features;
  definitions: Map<string, Definition>;
  footnotes: FootnoteNumbering;
  links: LinkResolver;
  resources: ResourceTracker;
  contentOptions: ContentOptions;
  warn(message: string): void;
}

const LINK_SCHEMES = /^(https?|mailto|tel|ftp):/i;

/** Turns a Markdown URL into a link target, or null when a PDF cannot follow it. */
export class LinkResolver {
  constructor(private readonly anchors: ReadonlySet<string>, private readonly warn: (message: string) => void) {}

  resolve(url: string, description: string): Link | null {
    if (url.startsWith('#')) {
      const anchor = safeDecode(url.slice(1)).toLowerCase();
      if (this.anchors.has(anchor)) return { target: { kind: 'internal', dest: anchor }, description };
      this.warn(`link to #${anchor} has no matching heading`);
      return null;
    }
    if (LINK_SCHEMES.test(url)) return { target: { kind: 'uri', uri: url }, description };
    return null;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Numbers footnotes in the order of their first reference, as GitHub does. */
export class FootnoteNumbering {
  private readonly numbers = new Map<string, number>();
  private readonly order: string[] = [];

  constructor(private readonly definitions: Map<string, MdastFootnote>) {}

  reference(identifier: string): { number: number; dest: string } | null {
    if (!this.definitions.has(identifier)) return null;
    let number = this.numbers.get(identifier);
    if (number === undefined) {
      number = this.order.push(identifier);
      this.numbers.set(identifier, number);
    }
    return { number, dest: footnoteDest(number) };
  }

  /** Referenced definitions by number; grows while their own bodies are built. */
  referenced(index: number): { number: number; dest: string; node: MdastFootnote } | null {
    const identifier = this.order[index];
    if (identifier === undefined) return null;
    return { number: index + 1, dest: footnoteDest(index + 1), node: this.definitions.get(identifier)! };
  }
}

export function footnoteDest(number: number): string {
  return `fn-${number}`;
}
