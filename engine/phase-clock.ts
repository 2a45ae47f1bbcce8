import { performance } from 'node:perf_hooks';

export interface PhaseTimings {
  setup: number;
  render: number;
  serialize: number;
}

/** Measures consecutive phases: each mark closes the phase that began at the previous one. */
export class PhaseClock {
  private last = performance.now();
  private readonly spans: PhaseTimings = { setup: 0, render: 0, serialize: 0 };

  mark(phase: keyof PhaseTimings): void {
    const now = performance.now();
    this.spans[phase] += now - this.last;
    this.last = now;
  }

  timings(): PhaseTimings {
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return { setup: round(this.spans.setup), render: round(this.spans.render), serialize: round(this.spans.serialize) };
  }
}
