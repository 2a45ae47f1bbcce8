import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
/**
 * A fixed pool of render workers (worker threads) with a bounded queue, served fairly between
 * accounts (FairQueue): one account's queued renders never stand before another's first.
 *
 * Hand-written rather than piscina (see FINDINGS: aborts killing unrelated tasks, tasks never
 * starting after aborts): each worker runs one task at a time, so terminating a worker — on a
 * timeout, a crash or running out of memory — can only ever fail that task, and a fresh worker
 * takes its place.
 */
import { Worker } from 'node:worker_threads';
import { ActiveAccounts } from '../limits/active-accounts.js';
import { FairQueue } from '../limits/fair-queue.js';
import { silentLog, type Log } from '../log.js';
import type { NetSettings } from '../net/net-settings.js';
import type { RenderFailure, RenderOutput, RenderTask, WorkerReply, WorkerSetup } from './protocol.js';

export interface PoolOptions {
  size: number;
  /** Tasks allowed to wait for a worker; past it the account waiting most is answered `queue_full`. */
  queueLimit: number;
  /** Old-generation heap per worker. */
  memoryMb: number;
  /** Module whose `render` the workers call: the engine unless a test hands a stand-in. */
  engineModule?: URL;
  /** Settings for loading remote resources; absent: workers make no outbound request. */
  net?: NetSettings;
  log?: Log;
}

export type PoolResult = { ok: true; output: RenderOutput; queuedMs: number } | { ok: false; failure: RenderFailure };

interface Job {
  task: RenderTask;
  account: string;
  timeoutMs: number;
  enqueuedAt: number;
  resolve(result: PoolResult): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | undefined;
  queuedMs: number;
  timer: NodeJS.Timeout | undefined;
  retired: boolean;
  /** The accounts whose last preview this worker drew: it holds their laid-out blocks. */
  previewers: Set<string>;
}

const WORKER_ENTRY = new URL('./render-worker.js', import.meta.url);
/** The engine package's entry, resolved as this module would import it (the bundle keeps import.meta.url). */
const ENGINE_MODULE = pathToFileURL(createRequire(import.meta.url).resolve('@quire/engine'));
/** Wait before starting a worker again after one failed to start, so a broken install cannot spin. */
const RESTART_DELAY_MS = 1_000;
/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long after its last render an account counts as active, keeping a worker from a flood. */
const ACTIVE_MS = 10_000;

export class RenderPool {
  private readonly slots = new Set<Slot>();
  private readonly queue = new FairQueue<Job>((job) => job.account);
  private readonly active = new ActiveAccounts(ACTIVE_MS);
  /** Set while queued work waits only for an account's share to grow (another account going quiet). */
  private retry: NodeJS.Timeout | undefined;
  private closing = false;
  private idle: (() => void) | undefined;
  private readonly startWaiters: (() => void)[] = [];
  private readonly log: Log;

  constructor(private readonly options: PoolOptions) {
    this.log = options.log ?? silentLog;
    for (let i = 0; i < options.size; i += 1) this.spawn();
  }

  /** Resolves once no worker is starting any more: each has loaded the engine, or failed to. */
  started(): Promise<void> {
    if (!this.starting()) return Promise.resolve();
    return new Promise((resolve) => this.startWaiters.push(resolve));
  }

  /** Whether close() has begun: the service is draining, and takes no new task. */
  isClosing(): boolean {
    return this.closing;
  }

  /** For metrics and readiness: tasks waiting for a worker, workers rendering, workers able to render. */
  stats(): { queued: number; busy: number; ready: number; closing: boolean } {
    const live = [...this.slots].filter((slot) => !slot.retired);
    return {
      queued: this.queue.length,
      busy: live.filter((slot) => slot.job).length,
      ready: live.filter((slot) => slot.ready).length,
      closing: this.closing,
    };
  }

  /**
   * Renders `task` in a worker; never rejects. The timeout counts from when a worker takes the
   * task. `account` only decides whose turn it is; it is never sent to the worker.
   */
  run(task: RenderTask, timeoutMs: number, account: string): Promise<PoolResult> {
    if (this.closing) return Promise.resolve({ ok: false, failure: { kind: 'unavailable' } });
    return new Promise((resolve) => {
      const job: Job = { task, account, timeoutMs, enqueuedAt: performance.now(), resolve };
      this.active.saw(account, job.enqueuedAt);
      this.queue.push(job);
      this.dispatch();
      if (this.queue.length > this.options.queueLimit) this.queue.shed(job).resolve({ ok: false, failure: { kind: 'queue_full' } });
    });
  }

  /** Stops taking tasks, lets running and queued ones finish for up to `graceMs`, then fails the rest. */
  async close(graceMs: number): Promise<void> {
    this.closing = true;
    if (this.busy()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(graceMs, MAX_TIMER_MS));
        this.idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    for (const job of this.queue.drain()) job.resolve({ ok: false, failure: { kind: 'unavailable' } });
    await Promise.all(
      [...this.slots].map((slot) => {
        if (slot.job) this.finish(slot, { ok: false, failure: { kind: 'unavailable' } });
        slot.retired = true;
        return slot.worker.terminate();
      }),
    );
    this.slots.clear();
  }

  private busy(): boolean {
    return this.queue.length > 0 || [...this.slots].some((slot) => slot.job);
  }

  private starting(): boolean {
    return [...this.slots].some((slot) => !slot.ready);
  }

  private notifyStarted(): void {
    if (this.starting()) return;
    for (const resolve of this.startWaiters.splice(0)) resolve();
  }

  private spawn(): void {
    const setup: WorkerSetup = { engineModule: (this.options.engineModule ?? ENGINE_MODULE).href, net: this.options.net };
    const worker = new Worker(WORKER_ENTRY, {
      workerData: setup,
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
    });
    const slot: Slot = { worker, ready: false, job: undefined, queuedMs: 0, timer: undefined, retired: false, previewers: new Set() };
    this.slots.add(slot);
    worker.on('message', (reply: WorkerReply) => this.onReply(slot, reply));
    worker.on('error', (error: Error & { code?: string }) => {
      const oom = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (!oom) this.log({ event: 'worker_error', error: error.stack ?? error.message });
      this.onDeath(slot, oom ? 'out_of_memory' : 'crashed');
    });
    worker.on('exit', (code) => {
      if (!slot.retired) this.log({ event: 'worker_exit', code });
      this.onDeath(slot, 'crashed');
    });
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    if (reply.type === 'ready') {
      slot.ready = true;
      this.notifyStarted();
      this.dispatch();
      return;
    }
    if (reply.worn) {
      this.log({ event: 'worker_replaced', reason: 'heap' });
      // Retired before the answer, so answering cannot dispatch the next task to this worker.
      this.retire(slot, 0);
    }
    if (reply.type === 'done') this.finish(slot, { ok: true, output: reply.output, queuedMs: slot.queuedMs });
    else this.finish(slot, { ok: false, failure: reply.failure });
  }

  /** A worker died: its task alone fails, and another worker takes its place. */
  private onDeath(slot: Slot, kind: 'out_of_memory' | 'crashed'): void {
    if (slot.retired) return;
    const startedOnce = slot.ready;
    // Retired before its task is answered: answering dispatches the next task, never to this worker.
    this.retire(slot, startedOnce ? 0 : RESTART_DELAY_MS);
    if (slot.job) this.finish(slot, { ok: false, failure: { kind } });
    this.notifyStarted();
    if (!startedOnce && ![...this.slots].some((other) => other.ready)) {
      // No worker can render now; waiting tasks would hang, so answer them.
      for (const job of this.queue.drain()) job.resolve({ ok: false, failure: { kind: 'unavailable' } });
    }
  }

  private retire(slot: Slot, restartDelayMs: number): void {
    slot.retired = true;
    this.slots.delete(slot);
    void slot.worker.terminate();
    if (this.closing) return;
    if (restartDelayMs === 0) this.spawn();
    else setTimeout(() => this.closing || this.spawn(), restartDelayMs).unref();
  }

  private dispatch(): void {
    const share = this.active.share(this.stats().ready, performance.now());
    for (;;) {
      const free = [...this.slots].filter((slot) => slot.ready && !slot.job && !slot.retired);
      if (free.length === 0) return;
      const job = this.queue.take(share);
      if (!job) {
        if (this.queue.length > 0) this.retry ??= setTimeout(() => ((this.retry = undefined), this.dispatch()), ACTIVE_MS).unref();
        return;
      }
      const slot = job.task.preview ? previewSlot(free, this.slots, job.account) : free[0]!;
      slot.job = job;
      slot.queuedMs = performance.now() - job.enqueuedAt;
      slot.timer = setTimeout(() => this.onTimeout(slot), Math.min(job.timeoutMs, MAX_TIMER_MS));
      slot.worker.postMessage(job.task);
    }
  }

  /** Answered at once; the worker may be stuck in code that cannot be interrupted, so it is replaced. */
  private onTimeout(slot: Slot): void {
    this.retire(slot, 0);
    this.finish(slot, { ok: false, failure: { kind: 'pool_timeout' } });
  }

  private finish(slot: Slot, result: PoolResult): void {
    const job = slot.job;
    if (!job) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    this.queue.finished(job);
    job.resolve(result);
    this.dispatch();
    if (this.idle && !this.busy()) this.idle();
  }
}

/**
 * A preview goes to the free worker that drew the account's last one, if free: it keeps the
 * blocks laid out then, so an edit lays out only what changed. Otherwise any free worker, which
 * becomes the account's.
 */
function previewSlot(free: Slot[], slots: Set<Slot>, account: string): Slot {
  const slot = free.find((candidate) => candidate.previewers.has(account)) ?? free[0]!;
  for (const other of slots) other.previewers.delete(account);
  slot.previewers.add(account);
  return slot;
}
