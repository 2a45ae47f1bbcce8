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

/**
 * The names a `#fragment` link may land on: headings' slugs (matched whatever the link's case, as
 * before) and the ids and `<a name>`s written in HTML (matched exactly, as HTML does). A name a
 * heading has stays the heading's.
 */
export interface LinkTargets {
  headings: ReadonlySet<string>;
  html: ReadonlySet<string>;
}

/** Turns a Markdown URL into a link target, or null when a PDF cannot follow it. */
export class LinkResolver {
  constructor(private readonly targets: LinkTargets, private readonly warn: (message: string) => void) {}

  resolve(url: string, description: string): Link | null {
    if (url.startsWith('#')) {
      const dest = this.destination(safeDecode(url.slice(1)));
      return dest === null ? null : { target: { kind: 'internal', dest }, description };
    }
    if (LINK_SCHEMES.test(url)) return { target: { kind: 'uri', uri: url }, description };
    return null;
  }

  /** Whether an HTML anchor of this name becomes a destination (a heading of that name keeps it). */
  isHtmlTarget(name: string): boolean {
    return this.targets.html.has(name);
  }

  private destination(name: string): string | null {
    const { headings, html } = this.targets;
    if (html.has(name) || headings.has(name)) return name;
    const slug = name.toLowerCase();
    if (headings.has(slug)) return slug;
    this.warn(`link to #${name} has no matching heading or anchor`);
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
