/** Standard structure types of ISO 32000-1 §14.8.4 that Quire uses. */
export type StructRole =
  | 'Document'
  | 'Part'
  | 'Sect'
  | 'TOC'
  | 'TOCI'
  | 'H1'
  | 'H2'
  | 'H3'
  | 'H4'
  | 'H5'
  | 'H6'
  | 'P'
  | 'L'
  | 'LI'
  | 'Lbl'
  | 'LBody'
  | 'Table'
  | 'THead'
  | 'TBody'
  | 'TR'
  | 'TH'
  | 'TD'
  | 'Link'
  | 'Code'
  | 'BlockQuote'
  | 'Div'
  | 'Note'
  | 'Reference'
  | 'Figure'
  | 'Formula'
  | 'Caption'
  | 'Span';

export type StructId = number;

export interface StructNode {
  id: StructId;
  role: StructRole;
  parent: StructId | null;
  alt?: string;
  actualText?: string;
  lang?: string;
  /** TH scope, for table headers. */
  scope?: 'Column' | 'Row';
  /** Element identifier; PDF/UA requires one on every Note. */
  elementId?: string;
}

/**
 * The logical structure of a tagged PDF as plain data. Layout adds nodes in reading order;
 * painting attaches each to its parent when its first content is drawn, so children and
 * content keep that order.
 */
export class StructTree {
  readonly nodes: StructNode[] = [];
  readonly root: StructId;

  constructor(lang: string | undefined) {
    this.root = this.add('Document', null, lang ? { lang } : {});
  }

  add(role: StructRole, parent: StructId | null, extra: Omit<StructNode, 'id' | 'role' | 'parent'> = {}): StructId {
    const id = this.nodes.length;
    this.nodes.push({ id, role, parent, ...extra });
    return id;
  }

  node(id: StructId): StructNode {
    return this.nodes[id]!;
  }

  /** Nodes laid out for an earlier tree (a cached block), renumbered to follow this tree's last. */
  adopt(nodes: readonly StructNode[]): void {
    for (const node of nodes) {
      if (node.id !== this.nodes.length) throw new Error(`structure node ${node.id} adopted at ${this.nodes.length}`);
      this.nodes.push(node);
    }
  }
}

/**
 * Adds structure nodes when the document is tagged and does nothing otherwise, so layout code
 * never branches on `tagged`.
 */
export class Tagger {
  constructor(readonly tree: StructTree | null) {}

  get root(): StructId | null {
    return this.tree?.root ?? null;
  }

  add(role: StructRole, parent: StructId | null, extra: Omit<StructNode, 'id' | 'role' | 'parent'> = {}): StructId | null {
    if (!this.tree || parent === null) return null;
    return this.tree.add(role, parent, extra);
  }
}
