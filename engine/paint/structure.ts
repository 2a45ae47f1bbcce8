import type { StructId, StructTree } from '../layout/structure.js';
import type { DocumentInternals, PdfRef } from './pdfkit-internals.js';
import { textString } from './pdf-values.js';

type Kid = { kind: 'element'; ref: PdfRef } | { kind: 'content'; page: PdfRef; mcid: number } | { kind: 'annotation'; page: PdfRef; annotation: PdfRef };

/**
 * Writes the structure tree. An element is created and attached to its parent when its first
 * content is painted, so the order of kids is the order of reading: text, then a link inside
 * it, then more text. Link annotations are attached to their own element on their own page.
 */
export class StructureWriter {
  private readonly refs = new Map<StructId, PdfRef>();
  private readonly kids = new Map<StructId, Kid[]>();

  constructor(
    private readonly doc: DocumentInternals,
    private readonly tree: StructTree,
  ) {}

  /** The operator opening marked content for `id` on the current page (closed by `EMC`). */
  beginContent(id: StructId): string {
    const ref = this.attach(id);
    const page = this.doc.page;
    const parents = this.doc.getStructParentTree().get(page.structParentTreeKey);
    const mcid = parents.length;
    parents.push(ref);
    this.kidsOf(id).push({ kind: 'content', page: page.dictionary, mcid });
    return `/${this.tree.node(id).role} <</MCID ${mcid}>> BDC`;
  }

  /** Attaches an element with no content of its own (an empty table cell) in reading order. */
  mark(id: StructId): void {
    this.attach(id);
  }

  annotation(id: StructId, annotation: PdfRef): void {
    const ref = this.attach(id);
    const key = this.doc.createStructParentTreeNextKey();
    this.doc.getStructParentTree().add(key, ref);
    annotation.data.StructParent = key;
    this.kidsOf(id).push({ kind: 'annotation', page: this.doc.page.dictionary, annotation });
  }

  /** Ends every element; elements never painted are attached last, so none goes missing. */
  finish(): void {
    for (const node of this.tree.nodes) if (!this.refs.has(node.id) && node.parent !== null) this.attach(node.id);
    for (const [id, ref] of this.refs) {
      const kids = this.kidsOf(id);
      const firstPage = kids.find((kid) => kid.kind !== 'element') as { page: PdfRef } | undefined;
      if (firstPage) ref.data.Pg = firstPage.page;
      ref.data.K = kids.map((kid) => {
        if (kid.kind === 'element') return kid.ref;
        if (kid.kind === 'annotation') return { Type: 'OBJR', Obj: kid.annotation, Pg: kid.page };
        return kid.page === firstPage?.page ? kid.mcid : { Type: 'MCR', Pg: kid.page, MCID: kid.mcid };
      });
      ref.end();
    }
    this.doc.getStructTreeRoot().data.K = [this.refs.get(this.tree.root)!];
  }

  private attach(id: StructId): PdfRef {
    const existing = this.refs.get(id);
    if (existing) return existing;
    const node = this.tree.node(id);
    const data: Record<string, unknown> = { Type: 'StructElem', S: node.role };
    if (node.alt !== undefined) data.Alt = textString(node.alt);
    if (node.actualText !== undefined) data.ActualText = textString(node.actualText);
    if (node.lang !== undefined) data.Lang = textString(node.lang);
    if (node.scope !== undefined) data.A = { O: 'Table', Scope: node.scope };
    if (node.elementId !== undefined) data.ID = textString(node.elementId);
    const ref = this.doc.ref(data);
    this.refs.set(id, ref);
    if (node.parent === null) {
      data.P = this.doc.getStructTreeRoot();
    } else {
      const parent = this.attach(node.parent);
      data.P = parent;
      this.kidsOf(node.parent).push({ kind: 'element', ref });
    }
    return ref;
  }

  private kidsOf(id: StructId): Kid[] {
    let kids = this.kids.get(id);
    if (!kids) {
      kids = [];
      this.kids.set(id, kids);
    }
    return kids;
  }
}
