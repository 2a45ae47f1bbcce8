/**
 * The service's Prometheus metrics (served at /metrics): renders by front-end, outcome and code,
 * how long they took, the render queue and workers, and documents charged or returned. Labels
 * carry no account, key or document: nothing here identifies a customer.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RenderPool } from '../workers/pool.js';

/** How often the event loop's delay is sampled: a timer this often, cheap beside a render. */
const LOOP_RESOLUTION_MS = 10;
let loopDelay: IntervalHistogram | undefined;

/** One sampler per process, however many registries read it; it does not keep the process alive. */
function loopSampler(): IntervalHistogram {
  if (!loopDelay) {
    loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    loopDelay.enable();
  }
  return loopDelay;
}

/**
 * The longest the event loop was late since the previous scrape, in seconds: a main thread held
 * by synchronous work (a large JSON body, a slow SQLite statement) delays every request and the
 * lease renewals with it. The sampler records whole intervals between its ticks, so the tick
 * itself is taken off.
 */
function loopLagSinceLastScrape(sampler: IntervalHistogram): number {
  const lateMs = sampler.count > 0 ? sampler.max / 1e6 - LOOP_RESOLUTION_MS : 0;
  sampler.reset();
  return Math.max(0, lateMs) / 1000;
}

export type Door = 'api' | 'mcp' | 'editor';

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly renders: Counter<'front_end' | 'outcome' | 'code'>;
  private readonly renderSeconds: Histogram<'front_end' | 'outcome'>;
  private readonly charged: Counter;
  private readonly returned: Counter<'code'>;
  private readonly storeSeconds: Histogram<'operation'>;

  constructor(pool: RenderPool) {
    const registers = [this.registry];
    // Sampling starts with the service, not at the first scrape.
    const sampler = loopSampler();
    collectDefaultMetrics({ register: this.registry, prefix: 'quire_' });
    this.renders = new Counter({
      name: 'quire_renders_total',
      help: 'Render requests answered, by front-end (api, mcp), outcome (delivered, replayed, refused) and error code (none when delivered).',
      labelNames: ['front_end', 'outcome', 'code'],
      registers,
    });
    this.renderSeconds = new Histogram({
      name: 'quire_render_duration_seconds',
      help: 'Time from a render request to its answer, refusals included.',
      labelNames: ['front_end', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.charged = new Counter({ name: 'quire_documents_charged_total', help: 'Documents charged (delivered).', registers });
    this.returned = new Counter({
      name: 'quire_documents_returned_total',
      help: 'Reserved documents returned to their period, by the refusal that returned them.',
      labelNames: ['code'],
      registers,
    });
    this.storeSeconds = new Histogram({
      name: 'quire_store_latency_seconds',
      help: 'Time of each call to the database (SQLite or PostgreSQL), by store operation.',
      labelNames: ['operation'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
      registers,
    });
    new Gauge({
      name: 'quire_event_loop_lag_seconds',
      help: 'Longest delay of the main event loop since the previous scrape (monitorEventLoopDelay, sampled every 10 ms).',
      registers,
      collect() {
        this.set(loopLagSinceLastScrape(sampler));
      },
    });
    new Gauge({
      name: 'quire_render_queue_depth',
      help: 'Renders waiting for a worker.',
      registers,
      collect() {
        this.set(pool.stats().queued);
      },
    });
    new Gauge({
      name: 'quire_workers_busy',
      help: 'Render workers rendering now.',
      registers,
      collect() {
        this.set(pool.stats().busy);
      },
    });
    new Gauge({
      name: 'quire_workers_ready',
      help: 'Render workers able to take a render.',
      registers,
      collect() {
        this.set(pool.stats().ready);
      },
    });
  }

  render(frontEnd: Door, outcome: 'delivered' | 'replayed' | 'refused', code: string, seconds: number): void {
    this.renders.inc({ front_end: frontEnd, outcome, code });
    this.renderSeconds.observe({ front_end: frontEnd, outcome }, seconds);
  }

  storeCall(operation: string, seconds: number): void {
    this.storeSeconds.observe({ operation }, seconds);
  }

  documentCharged(): void {
    this.charged.inc();
  }

  documentReturned(code: string): void {
    this.returned.inc({ code });
  }

  /** The text exposition format and its content type. */
  async exposition(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
