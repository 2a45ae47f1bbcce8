import { posix } from 'node:path';
import type { Definition, FootnoteDefinition as MdastFootnote } from 'mdast';
import type { Features } from '../options.js';
import type { ImageResource } from '../resources/image.js';
import type { ContentOptions } from '../content/result.js';
import type { Link } from './types.js';
import type { CodeBlockCache } from './code-block-cache.js';

/** What building one document shares across its blocks. */
export interface BuildContext {
  features: Features;
  definitions: Map<string, Definition>;
  footnotes: FootnoteReferences;
  links: LinkResolver;
  /** Loads an image of this file (relative paths from its folder). */
  resources: { loadImage(url: string): Promise<ImageResource | null> };
  contentOptions: ContentOptions;
  /** Fenced blocks an earlier render made (see CodeBlockCache). */
  codeBlocks: CodeBlockCache | undefined;
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

/**
 * The link targets of one file of a document. Files joined into one document each name their
 * places in a namespace of their own: their destinations start with `prefix` ('' for the first).
 */
export interface PartTargets {
  targets: LinkTargets;
  prefix: string;
  /** The file's path from the document's root, with `/` between folders; null for a lone document. */
  path: string | null;
  /** The destination of the file's first page; null for a lone document. */
  start: string | null;
}

/** Turns a Markdown URL into a link target, or null when a PDF cannot follow it. */
export class LinkResolver {
  /** `parts`: every file of a joined document by path, which relative links may name. */
  constructor(
    private readonly part: PartTargets,
    private readonly warn: (message: string) => void,
    private readonly parts: ReadonlyMap<string, PartTargets> = new Map(),
  ) {}

  resolve(url: string, description: string): Link | null {
    const internal = (dest: string | null): Link | null => (dest === null ? null : { target: { kind: 'internal', dest }, description });
    if (url.startsWith('#')) return internal(this.destination(this.part, safeDecode(url.slice(1)), url));
    if (LINK_SCHEMES.test(url)) return { target: { kind: 'uri', uri: url }, description };
    const other = this.joinedFile(url);
    if (!other) return null;
    return internal(other.fragment === null ? other.part.start : this.destination(other.part, other.fragment, url));
  }

  /** The destination an HTML anchor of this name becomes, or null when a heading of that name keeps it. */
  htmlTarget(name: string): string | null {
    return this.part.targets.html.has(name) ? this.part.prefix + name : null;
  }

  private destination(part: PartTargets, name: string, url: string): string | null {
    const { headings, html } = part.targets;
    if (html.has(name) || headings.has(name)) return part.prefix + name;
    const slug = name.toLowerCase();
    if (headings.has(slug)) return part.prefix + slug;
    this.warn(`link to ${url} has no matching heading or anchor`);
    return null;
  }

  /** The joined file a relative link (`setup.md#install`, `../guide/intro.md`) names, and its fragment. */
  private joinedFile(url: string): { part: PartTargets; fragment: string | null } | null {
    if (this.part.path === null || /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/')) return null;
    const hash = url.indexOf('#');
    const file = safeDecode((hash === -1 ? url : url.slice(0, hash)).split('?')[0]!);
    const path = posix.normalize(posix.join(posix.dirname(this.part.path), file));
    const part = this.parts.get(path);
    return part ? { part, fragment: hash === -1 ? null : safeDecode(url.slice(hash + 1)) } : null;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface FootnoteReferences {
  reference(identifier: string): { number: number; dest: string } | null;
}

/**
 * Numbers footnotes in the order of their first reference, as GitHub does, across every file of
 * a joined document; each file's identifiers are its own (its `part`).
 */
export class FootnoteNumbering {
  private readonly definitions = new Map<string, { node: MdastFootnote; part: number }>();
  private readonly numbers = new Map<string, number>();
  private readonly order: string[] = [];

  define(part: number, node: MdastFootnote): void {
    const key = `${part}:${node.identifier}`;
    if (!this.definitions.has(key)) this.definitions.set(key, { node, part });
  }

  /** The references of one file. */
  of(part: number): FootnoteReferences {
    return { reference: (identifier) => this.reference(`${part}:${identifier}`) };
  }

  /** Referenced definitions by number, with the file they come from; grows while their own bodies are built. */
  referenced(index: number): { number: number; dest: string; node: MdastFootnote; part: number } | null {
    const key = this.order[index];
    if (key === undefined) return null;
    return { number: index + 1, dest: footnoteDest(index + 1), ...this.definitions.get(key)! };
  }

  private reference(key: string): { number: number; dest: string } | null {
    if (!this.definitions.has(key)) return null;
    let number = this.numbers.get(key);
    if (number === undefined) {
      number = this.order.push(key);
      this.numbers.set(key, number);
    }
    return { number, dest: footnoteDest(number) };
  }
}

export function footnoteDest(number: number): string {
  return `fn-${number}`;
}
