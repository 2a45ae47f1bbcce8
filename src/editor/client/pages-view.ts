/**
 * The pages on the right: one picture per page, replaced only when its hash changed, so an edit
 * redraws only the pages it touched. Pictures are kept by hash, and those hashes are what the
 * service is told it need not draw again.
 */
import type { PreviewPage } from './api.js';

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

  update(pages: readonly PreviewPage[]): void {
    for (const page of pages) {
      if (page.png !== null) this.pictures.set(page.hash, `data:image/png;base64,${page.png}`);
      if (page.lines !== null) this.texts.set(page.hash, page.lines);
    }
    pages.forEach((page, index) => {
      const existing = this.shown[index];
      if (existing?.hash === page.hash) return;
      const picture = this.pictures.get(page.hash);
      if (!picture) return; // the service drew it and we dropped it: the next preview asks again
      const figure = existing?.figure ?? this.addFigure(index);
      const image = figure.querySelector('img')!;
      image.src = picture;
      image.alt = `Page ${index + 1} of the preview`;
      figure.style.aspectRatio = `${page.width} / ${page.height}`;
      figure.dataset.height = String(page.height);
      this.shown[index] = { hash: page.hash, figure };
    });
    for (const gone of this.shown.splice(pages.length)) gone.figure.remove();
    this.shown.forEach((page, index) => (page.figure.querySelector('img')!.alt = `Page ${index + 1} of ${pages.length}`));
    this.forgetUnused(pages);
    this.revision += 1;
    this.container.dataset.revision = String(this.revision);
  }

  /** Scrolls so that `fraction` (0–1) of the whole document is at the top. */
  scrollToFraction(fraction: number): void {
    this.container.scrollTop = fraction * Math.max(0, this.container.scrollHeight - this.container.clientHeight);
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
