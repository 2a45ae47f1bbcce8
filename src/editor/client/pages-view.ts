/**
 * The pages on the right: one picture per page, replaced only when its hash changed, so an edit
 * redraws only the pages it touched. Pictures are kept by hash, and those hashes are what the
 * service is told it need not draw again. A preview draws only the pages near the one in view;
 * a page it did not draw keeps its earlier picture, marked out of date, or stands blank.
 */
import type { PreviewPage } from './api.js';
import { WORD, wordRun } from './source-match.js';

/** Page pictures kept beyond the pages shown, for an edit undone. */
const SPARE_PICTURES = 64;

export class PagesView {
  private readonly pictures = new Map<string, string>();
  private readonly texts = new Map<string, { y: number; text: string }[]>();
  private shown: { hash: string; figure: HTMLElement }[] = [];
  /** Bumped after every update: the browser test waits for it. */
  revision = 0;

  constructor(
    private readonly container: HTMLElement,
    private readonly onPageClick: (pageIndex: number, fractionDown: number, lineText: string | null) => void,
  ) {}

  knownHashes(): string[] {
    return [...this.pictures.keys()];
  }

  get pageCount(): number {
    return this.shown.length;
  }

  /** Shows a preview's pages; answers how many pictures on screen it replaced (pages drawn for the first time not counted). */
  update(pages: readonly PreviewPage[]): number {
    let replaced = 0;
    for (const page of pages) {
      if (page.png !== null) this.pictures.set(page.hash, `data:image/png;base64,${page.png}`);
      if (page.lines !== null) this.texts.set(page.hash, page.lines);
    }
    pages.forEach((page, index) => {
      const existing = this.shown[index];
      if (existing?.hash === page.hash && !existing.figure.classList.contains('stale')) return;
      const figure = existing?.figure ?? this.addFigure(index);
      figure.style.aspectRatio = `${page.width} / ${page.height}`;
      figure.dataset.height = String(page.height);
      this.shown[index] = { hash: page.hash, figure };
      const picture = this.pictures.get(page.hash);
      if (picture && existing && !figure.classList.contains('stale')) replaced += 1;
      // Not drawn this time (far from the page in view): the next preview near it draws it.
      figure.classList.toggle('stale', !picture);
      if (picture) figure.querySelector('img')!.src = picture;
    });
    for (const gone of this.shown.splice(pages.length)) gone.figure.remove();
    this.shown.forEach((page, index) => (page.figure.querySelector('img')!.alt = `Page ${index + 1} of ${pages.length}`));
    this.forgetUnused(pages);
    this.revision += 1;
    this.container.dataset.revision = String(this.revision);
    return replaced;
  }

  /** Scrolls so that `fraction` (0–1) of the whole document is at the top. */
  scrollToFraction(fraction: number): void {
    this.container.scrollTop = fraction * Math.max(0, this.container.scrollHeight - this.container.clientHeight);
  }

  /** The page (from 0) at the top of the view. */
  pageInView(): number {
    const top = this.container.getBoundingClientRect().top;
    const index = this.shown.findIndex((page) => page.figure.getBoundingClientRect().bottom > top);
    return Math.max(0, index);
  }

  /**
   * The page (from 0) that shows a line of the source: the line's words searched for in the text
   * of the pages drawn so far, the match nearest the page `estimate` chosen; `estimate` when no
   * drawn page has them.
   */
  pageOfText(text: string, estimate: number): number {
    return this.placeOfText(text, estimate)?.page ?? estimate;
  }

  /** Where a source line's words are set: the page (from 0) and the share of its height down to that line. */
  placeOfText(text: string, estimate: number): { page: number; fraction: number } | null {
    const pattern = wordsPattern(text);
    if (!pattern) return null;
    let best: { page: number; fraction: number } | null = null;
    this.shown.forEach((page, index) => {
      if (best !== null && Math.abs(index - estimate) >= Math.abs(best.page - estimate)) return;
      const lines = this.texts.get(page.hash) ?? [];
      const line = lines.find((candidate, at) => pattern.test(`${candidate.text} ${lines[at + 1]?.text ?? ''}`));
      if (line) best = { page: index, fraction: line.y / Number(page.figure.dataset.height) };
    });
    return best;
  }

  /** Scrolls so that the spot `fraction` down page `index` is at the top, less a line. */
  scrollToPlace(index: number, fraction: number): void {
    const figure = this.shown[index]?.figure;
    if (!figure) return;
    const offset = figure.getBoundingClientRect().top - this.container.getBoundingClientRect().top + this.container.scrollTop;
    this.container.scrollTop = Math.max(0, offset + fraction * figure.clientHeight - 24);
  }

  /** The text of the line at the top of the view, its page and how far down that page it is. */
  placeInView(): { page: number; fraction: number; text: string | null } {
    const page = this.pageInView();
    const figure = this.shown[page]?.figure;
    if (!figure) return { page, fraction: 0, text: null };
    const box = figure.getBoundingClientRect();
    const fraction = Math.min(1, Math.max(0, (this.container.getBoundingClientRect().top - box.top) / box.height));
    return { page, fraction, text: this.lineAt(this.shown[page]!.hash, fraction * Number(figure.dataset.height)) };
  }

  /** Whether a page in view, or next to it, waits for its picture. */
  undrawnInView(): boolean {
    const index = this.pageInView();
    return this.shown.slice(index, index + 2).some((page) => page.figure.classList.contains('stale'));
  }

  scrollFraction(): number {
    const range = this.container.scrollHeight - this.container.clientHeight;
    return range <= 0 ? 0 : this.container.scrollTop / range;
  }

  private addFigure(index: number): HTMLElement {
    const figure = document.createElement('figure');
    figure.className = 'page';
    const image = document.createElement('img');
    image.decoding = 'async';
    image.addEventListener('click', (event) => {
      const box = image.getBoundingClientRect();
      const fraction = (event.clientY - box.top) / box.height;
      const shown = this.shown.findIndex((page) => page.figure === figure);
      this.onPageClick(shown, fraction, this.lineAt(this.shown[shown]?.hash, fraction * Number(figure.dataset.height)));
    });
    figure.append(image);
    figure.dataset.page = String(index + 1);
    this.container.append(figure);
    return figure;
  }

  /** The text of the line whose baseline is nearest below `y` points (the line clicked on). */
  private lineAt(hash: string | undefined, y: number): string | null {
    const lines = hash === undefined ? undefined : this.texts.get(hash);
    if (!lines || lines.length === 0) return null;
    return (lines.find((line) => line.y >= y - 2) ?? lines.at(-1)!).text;
  }

  private forgetUnused(pages: readonly PreviewPage[]): void {
    const current = new Set(pages.map((page) => page.hash));
    const spare = [...this.pictures.keys()].filter((hash) => !current.has(hash));
    for (const hash of spare.slice(0, Math.max(0, spare.length - SPARE_PICTURES))) {
      this.pictures.delete(hash);
      this.texts.delete(hash);
    }
  }
}

/** The first words of a source line, as they would read on a page. */
function wordsPattern(text: string): RegExp | null {
  const words = (text.match(WORD) ?? []).slice(0, 3);
  return words.length === 0 ? null : wordRun(words, 'u');
}
