/**
 * The pages on the right: one picture per page, replaced only when its hash changed, so an edit
 * redraws only the pages it touched — and of those, often only the band of rows the edit changed,
 * laid over the picture shown before. Pictures are kept by hash, and those hashes are what the
 * service is told it need not draw again. A preview draws only the pages near the one in view;
 * a page it did not draw keeps its earlier picture, marked out of date, or stands blank.
 */
import type { PreviewPage } from './api.js';
import { WORD, wordRun } from './source-match.js';

/** Page pictures kept beyond the pages shown, for an edit undone. */
const SPARE_PICTURES = 64;
/** Bands laid over one page's picture before the whole page is asked for again. */
const MOST_BANDS = 12;

/** A page's picture: the whole page drawn once, and the bands (points from the top) later edits drew over it. */
interface Picture {
  whole: string;
  bands: { url: string; top: number; height: number }[];
}

export class PagesView {
  private readonly pictures = new Map<string, Picture>();
  private readonly texts = new Map<string, { y: number; text: string }[]>();
  /** Each page: its hash now, its figure, and the hash of the picture the figure shows (null: none yet). */
  private shown: { hash: string; figure: HTMLElement; drawn: string | null }[] = [];
  /** Bumped after every update: the browser test waits for it. */
  revision = 0;

  constructor(
    private readonly container: HTMLElement,
    private readonly onPageClick: (pageIndex: number, fractionDown: number, lineText: string | null) => void,
  ) {}

  knownHashes(): string[] {
    return [...this.pictures.keys()];
  }

  /** The picture shown as each page, that a band may be drawn over (null where there is none, or enough bands already). */
  shownHashes(): (string | null)[] {
    return this.shown.map(({ drawn }) => (drawn !== null && (this.pictures.get(drawn)?.bands.length ?? MOST_BANDS) < MOST_BANDS ? drawn : null));
  }

  get pageCount(): number {
    return this.shown.length;
  }

  /** Shows a preview's pages; answers how many pictures on screen it replaced (pages drawn for the first time not counted). */
  update(pages: readonly PreviewPage[]): number {
    let replaced = 0;
    for (const page of pages) {
      const picture = page.png === null ? undefined : this.pictureOf(page, `data:image/png;base64,${page.png}`);
      if (picture) this.pictures.set(page.hash, picture);
      if (page.lines !== null) this.texts.set(page.hash, page.lines);
    }
    pages.forEach((page, index) => {
      const existing = this.shown[index];
      if (existing?.hash === page.hash && !existing.figure.classList.contains('stale')) return;
      const figure = existing?.figure ?? this.addFigure(index);
      figure.style.aspectRatio = `${page.width} / ${page.height}`;
      figure.dataset.height = String(page.height);
      const picture = this.pictures.get(page.hash);
      if (picture && existing && !figure.classList.contains('stale')) replaced += 1;
      // Not drawn this time (far from the page in view): the next preview near it draws it.
      figure.classList.toggle('stale', !picture);
      if (picture) showPicture(figure, picture, page.height);
      this.shown[index] = { hash: page.hash, figure, drawn: picture ? page.hash : (existing?.drawn ?? null) };
    });
    for (const gone of this.shown.splice(pages.length)) gone.figure.remove();
    this.shown.forEach((page, index) => (page.figure.querySelector('img')!.alt = `Page ${index + 1} of ${pages.length}`));
    this.forgetUnused(pages);
    this.revision += 1;
    this.container.dataset.revision = String(this.revision);
    return replaced;
  }

  /** A page drawn whole, or a band laid over the picture it was drawn against (none, should that be gone: the page waits). */
  private pictureOf(page: PreviewPage, url: string): Picture | undefined {
    if (page.band === null) return { whole: url, bands: [] };
    const under = this.pictures.get(page.band.base);
    return under && { whole: under.whole, bands: [...under.bands, { url, top: page.band.top, height: page.band.height }] };
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
    const drawn = new Set(this.shown.map((page) => page.drawn));
    for (const hash of spare.filter((hash) => !drawn.has(hash)).slice(0, Math.max(0, spare.length - SPARE_PICTURES))) {
      this.pictures.delete(hash);
      this.texts.delete(hash);
    }
  }
}

/** The page's picture in its figure: the whole page, then each band over it, placed by share of the page's height. */
function showPicture(figure: HTMLElement, picture: Picture, pageHeight: number): void {
  const [whole, ...laid] = [...figure.querySelectorAll('img')];
  if (whole!.src !== picture.whole) whole!.src = picture.whole;
  // Bands already shown stay (an edit typed on adds one); the rest are replaced.
  let kept = 0;
  while (kept < laid.length && kept < picture.bands.length && laid[kept]!.src === picture.bands[kept]!.url) kept += 1;
  for (const stale of laid.slice(kept)) stale.remove();
  for (const band of picture.bands.slice(kept)) {
    const image = document.createElement('img');
    image.className = 'band';
    image.alt = '';
    image.src = band.url;
    image.style.top = `${(band.top / pageHeight) * 100}%`;
    image.style.height = `${(band.height / pageHeight) * 100}%`;
    figure.append(image);
  }
}

/** The first words of a source line, as they would read on a page. */
function wordsPattern(text: string): RegExp | null {
  const words = (text.match(WORD) ?? []).slice(0, 3);
  return words.length === 0 ? null : wordRun(words, 'u');
}
