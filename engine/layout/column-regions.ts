/**
 * Where the cuts of a page builder go on their pages: the text block, or with two columns one
 * column after the other, two to a page, below a title block that spans both on the first.
 */
import type { PageGeometry } from '../style/page-geometry.js';
import type { BoxItem } from './vertical.js';

/** Boxes placed on one page, before decorations and page furniture are added. */
export interface CutPage {
  items: BoxItem[];
  /** The page's own geometry: the document's, or turned for a landscape run. */
  geometry: PageGeometry;
}

export interface ColumnSettings {
  /** How far right the second column starts from the first. */
  step: number;
  /** Space taken at the top of the first page (by a title block spanning both columns). */
  firstPageTop: number;
}

/** Where one cut's boxes go on its page: below `top`, down `height`, moved right by `dx`. */
export interface Region {
  top: number;
  height: number;
  dx: number;
}

/** The region of the cut numbered `index` from 0. */
export function regionAt(index: number, geometry: PageGeometry, settings: { columns: ColumnSettings | null }): Region {
  const whole = { top: geometry.marginTop, height: geometry.contentHeight, dx: 0 };
  const columns = settings.columns;
  if (!columns) return whole;
  const top = index < 2 ? columns.firstPageTop : 0;
  return { top: whole.top + top, height: whole.height - top, dx: index % 2 === 0 ? 0 : columns.step };
}

/** Column cuts two to a page, the left's items then the right's. */
export function pairColumns(columns: readonly CutPage[]): CutPage[] {
  const pages: CutPage[] = [];
  for (let index = 0; index < columns.length; index += 2) {
    const right = columns[index + 1];
    pages.push({ items: right ? [...columns[index]!.items, ...right.items] : columns[index]!.items, geometry: columns[index]!.geometry });
  }
  return pages;
}
