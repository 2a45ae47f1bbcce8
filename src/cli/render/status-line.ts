import type { FetchProgress } from './resource-loader.js';

/**
 * One line of progress on standard error, rewritten in place — only when standard error is a
 * terminal: piped or logged output gets the final lines alone.
 */
export class StatusLine {
  private shown: string | null = null;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  show(text: string): void {
    if (!this.enabled) return;
    // A terminal that reports no size (0 columns) gets the usual 80.
    const width = Math.max(20, (this.stream.columns || 80) - 1);
    const line = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    // Hundreds of fetches starting tell it the same thing again: written once.
    if (line === this.shown) return;
    this.stream.write(`\r\x1b[2K${line}`);
    this.shown = line;
  }

  clear(): void {
    if (this.shown === null) return;
    this.stream.write('\r\x1b[2K');
    this.shown = null;
  }

  /** A permanent line: the status is cleared first and shown again after it. */
  print(line: string, status?: string): void {
    this.clear();
    this.stream.write(`${line}\n`);
    if (status !== undefined) this.show(status);
  }
}

/**
 * A render's remote images on standard error. On a terminal, the status line: "fetching remote
 * images, 120 of 300 done". Elsewhere (a log, a pipe, a test) nothing — unless `lines` (--progress)
 * asks for plain lines: one as the fetching starts, one at each further quarter, one at the end.
 */
export class RemoteProgress implements FetchProgress {
  private expected = 0;
  private started = 0;
  private ended = 0;
  private startedAt = 0;
  private quartersShown = 0;
  private finished = false;

  constructor(
    private readonly status: StatusLine,
    private readonly label: string,
    private readonly lines: boolean,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  planned(count: number): void {
    this.expected = Math.max(this.expected, count);
  }

  fetch(event: 'start' | 'end'): void {
    if (event === 'start') {
      if (this.started === 0) this.startedAt = performance.now();
      this.started++;
    } else {
      this.ended++;
    }
    const total = Math.max(this.expected, this.started);
    if (this.status.enabled) {
      if (this.ended === this.started) this.status.clear();
      else this.status.show(`quire: ${this.label}: fetching remote images, ${this.ended} of ${total} done`);
      return;
    }
    if (!this.lines) return;
    if (event === 'start' && this.started === 1) this.stream.write(`quire: ${this.label}: fetching ${images(total)}\n`);
    if (event !== 'end') return;
    if (this.ended >= total) {
      if (!this.finished) this.stream.write(`quire: ${this.label}: fetched ${images(this.ended)} in ${seconds(performance.now() - this.startedAt)}\n`);
      this.finished = true;
      return;
    }
    const quarter = Math.floor((4 * this.ended) / total);
    if (quarter > this.quartersShown) {
      this.quartersShown = quarter;
      this.stream.write(`quire: ${this.label}: ${this.ended} of ${images(total)} fetched\n`);
    }
  }
}

function images(count: number): string {
  return `${count} remote image${count === 1 ? '' : 's'}`;
}

export function pages(count: number): string {
  return `${count} page${count === 1 ? '' : 's'}`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
