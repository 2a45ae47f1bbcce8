/**
 * One line of progress on standard error, rewritten in place — only when standard error is a
 * terminal: piped or logged output gets the final lines alone.
 */
export class StatusLine {
  private shown = false;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  show(text: string): void {
    if (!this.enabled) return;
    // A terminal that reports no size (0 columns) gets the usual 80.
    const width = Math.max(20, (this.stream.columns || 80) - 1);
    this.stream.write(`\r\x1b[2K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[2K');
    this.shown = false;
  }

  /** A permanent line: the status is cleared first and shown again after it. */
  print(line: string, status?: string): void {
    this.clear();
    this.stream.write(`${line}\n`);
    if (status !== undefined) this.show(status);
  }
}

/** Counts a render's remote fetches on the status line: "fetching images: 2 of 5". */
export function fetchProgress(status: StatusLine, label: string): (event: 'start' | 'end') => void {
  let started = 0;
  let ended = 0;
  return (event) => {
    if (event === 'start') started++;
    else ended++;
    if (ended === started) status.clear();
    else status.show(`quire: ${label}: fetching images, ${ended} of ${started} done`);
  };
}

export function pages(count: number): string {
  return `${count} page${count === 1 ? '' : 's'}`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
