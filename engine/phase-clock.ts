export interface PhaseTimings {
  setup: number;
  render: number;
  serialize: number;
}

/**
 * Measures consecutive phases: each mark closes the phase that began at the previous one. On
 * process.hrtime: `performance` loads Node's performance timeline, a millisecond of a cold start.
 */
export class PhaseClock {
  private last = now();
  private readonly spans: PhaseTimings = { setup: 0, render: 0, serialize: 0 };

  mark(phase: keyof PhaseTimings): void {
    const time = now();
    this.spans[phase] += time - this.last;
    this.last = time;
  }

  timings(): PhaseTimings {
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return { setup: round(this.spans.setup), render: round(this.spans.render), serialize: round(this.spans.serialize) };
  }
}

function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
