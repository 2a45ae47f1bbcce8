/**
 * The renderer's worker threads and its queue. Each thread renders one task at a time, so
 * stopping a thread — a render aborted or past its time limit, a thread out of memory — can fail
 * only that render; another thread takes its place and the queue goes on. Renders wait in one
 * first-in, first-out queue; threads start as work comes, up to the pool's size.
 */
import { Worker } from 'node:worker_threads';
import { RenderTimeoutError, RenderWorkerError, RendererBoundError, RendererBusyError, RendererClosedError } from '../errors.js';
import type { RenderResult } from '../render.js';
import { loadForWorker } from './host-loads.js';
import type { HostMessage, WorkerMessage } from './protocol.js';
import type { PreparedCall } from './task.js';
import { rebuildError } from './transfer-errors.js';

export interface PoolSettings {
  threads: number;
  /** Old-generation heap of each thread. */
  maxMemoryMb: number;
  /** Each render's time limit from when a thread takes it; undefined: none. */
  timeoutMs: number | undefined;
  /** Renders that may wait for a thread. */
  maxQueue: number;
  /** The worker thread's script (worker.js beside this module). */
  workerScript: URL;
}

interface Job {
  id: number;
  call: PreparedCall;
  /** The loaders' signal: aborted once the render is over, however it ended. */
  loads: AbortController;
  /** Errors the caller's loaders threw (other than ResourceLoadError), by the number the worker names them with. */
  loaderErrors: unknown[];
  slot: Slot | undefined;
  settled: boolean;
  onAbort: (() => void) | undefined;
  resolve(result: RenderResult): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  /** The thread has loaded the engine and takes renders. */
  ready: boolean;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The RenderCache (by number) the thread holds its own copy of. */
  cache: number | null;
  /** Terminated or dead: its late events are ignored. */
  gone: boolean;
}

type Outcome = { result: RenderResult } | { error: unknown };

/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextJob = 0;
  private closing = false;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly settings: PoolSettings) {}

  /** Renders `call` on a thread: resolves with its result, or rejects with the engine's error or why the render was stopped. */
  run(call: PreparedCall): Promise<RenderResult> {
    if (this.closing) return Promise.reject(new RendererClosedError());
    const { signal } = call;
    if (signal?.aborted) return Promise.reject(new RenderTimeoutError({ cause: signal.reason }));
    return new Promise<RenderResult>((resolve, reject) => {
      const job: Job = {
        id: this.nextJob++,
        call,
        loads: new AbortController(),
        loaderErrors: [],
        slot: undefined,
        settled: false,
        onAbort: undefined,
        resolve,
        reject,
      };
      if (signal) {
        job.onAbort = () => this.stop(job, new RenderTimeoutError({ cause: signal.reason }));
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.dispatch();
      if (this.queue.length > this.settings.maxQueue && this.queue.at(-1) === job) {
        this.queue.pop();
        this.settle(job, { error: new RendererBusyError(this.settings.maxQueue) });
      }
    });
  }

  /** Takes no more renders, lets those asked for finish, then stops the threads. */
  async close(): Promise<void> {
    this.closing = true;
    if (!this.idle()) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(
      slots.map((slot) => {
        slot.gone = true;
        return slot.worker.terminate();
      }),
    );
  }

  private idle(): boolean {
    return this.queue.length === 0 && ![...this.slots].some((slot) => slot.job);
  }

  /** Hands waiting renders to free threads, first come first served, and starts threads for what still waits. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      const free = [...this.slots].filter((slot) => slot.ready && !slot.job);
      if (free.length === 0) break;
      const job = this.queue.shift()!;
      const cache = job.call.task.cache;
      // A render with a cache goes to the thread holding its copy, if that one is free.
      this.start(free.find((slot) => cache !== null && slot.cache === cache) ?? free[0]!, job);
    }
    const starting = [...this.slots].filter((slot) => !slot.ready).length;
    const wanted = Math.min(this.queue.length - starting, this.settings.threads - this.slots.size);
    for (let i = 0; i < wanted; i += 1) this.spawn();
    this.holdProcess();
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    job.slot = slot;
    if (job.call.task.cache !== null) slot.cache = job.call.task.cache;
    const { timeoutMs } = this.settings;
    if (timeoutMs !== undefined) {
      slot.timer = setTimeout(() => this.stop(job, new RenderTimeoutError({ limitMs: timeoutMs })), Math.min(timeoutMs, MAX_TIMER_MS));
      slot.timer.unref();
    }
    try {
      slot.worker.postMessage({ type: 'render', job: job.id, ...job.call.task } satisfies HostMessage);
    } catch (error) {
      // The task was copied when the call was made, so this is not expected; the thread is still free.
      this.settle(job, { error });
    }
  }

  /** A thread keeps the process alive only while it renders, or starts for a render waiting; an idle renderer never does. */
  private holdProcess(): void {
    for (const slot of this.slots) {
      if (slot.job || (!slot.ready && this.queue.length > 0)) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  private spawn(): void {
    const worker = new Worker(this.settings.workerScript, { resourceLimits: { maxOldGenerationSizeMb: this.settings.maxMemoryMb } });
    const slot: Slot = { worker, ready: false, job: undefined, timer: undefined, cache: null, gone: false };
    this.slots.add(slot);
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message));
    worker.on('error', (error: Error) => this.onDeath(slot, error, undefined));
    worker.on('exit', (code: number) => this.onDeath(slot, undefined, code));
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (slot.gone) return;
    if (message.type === 'ready') {
      slot.ready = true;
      this.dispatch();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== message.job) return;
    if (message.type === 'load') {
      const keep = (error: unknown) => job.loaderErrors.push(error) - 1;
      void loadForWorker(message, job.call.loaders[message.loader], job.loads.signal, keep).then(({ reply, transfer }) => {
        if (slot.job === job && !slot.gone) slot.worker.postMessage(reply, transfer);
      });
      return;
    }
    // Retired before the answer, so answering cannot hand the next render to this thread.
    if (message.worn) this.retire(slot);
    if (message.type === 'done') this.settle(job, { result: message.result });
    else this.settle(job, { error: message.error.loaderError === undefined ? rebuildError(message.error) : job.loaderErrors[message.error.loaderError] });
  }

  /** A thread died (it threw outside a render, ran out of memory, exited): its render alone fails, and another takes its place. */
  private onDeath(slot: Slot, error: (Error & { code?: string }) | undefined, exitCode: number | undefined): void {
    if (slot.gone) return;
    const started = slot.ready;
    const job = slot.job;
    this.retire(slot);
    if (job) {
      const failure =
        error?.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new RendererBoundError(
              'OutOfMemory',
              `the render ran out of memory: a renderer thread's heap is limited to ${this.settings.maxMemoryMb} MB (maxMemoryMb)`,
            )
          : new RenderWorkerError(error ? `the render's thread failed: ${error.message}` : `the render's thread stopped (exit code ${exitCode})`, {
              cause: error,
            });
      this.settle(job, { error: failure });
      return;
    }
    // A thread that never started is not replaced here: while another thread lives, it serves
    // the queue (and a later render may start one again); when none does, what waits is failed
    // rather than left waiting — so a thread that cannot start is not started again and again.
    if (started || this.slots.size > 0) return;
    const reason = error ? error.message : `exit code ${exitCode}`;
    for (const waiting of this.queue.splice(0))
      this.settle(waiting, { error: new RenderWorkerError(`no renderer thread could start: ${reason}`, { cause: error }) });
  }

  /** Stops `job` now: taken off the queue, or its thread terminated and replaced. */
  private stop(job: Job, error: Error): void {
    if (job.settled) return;
    if (job.slot) this.retire(job.slot);
    else if (this.queue.includes(job)) this.queue.splice(this.queue.indexOf(job), 1);
    this.settle(job, { error });
  }

  /** Terminates the thread; one that had started is replaced at once, so the pool keeps its size. */
  private retire(slot: Slot): void {
    slot.gone = true;
    this.slots.delete(slot);
    clearTimeout(slot.timer);
    void slot.worker.terminate();
    if (slot.ready && !this.closing) this.spawn();
  }

  private settle(job: Job, outcome: Outcome): void {
    if (job.settled) return;
    job.settled = true;
    const slot = job.slot;
    if (slot) {
      clearTimeout(slot.timer);
      slot.timer = undefined;
      slot.job = undefined;
      job.slot = undefined;
    }
    if (job.onAbort) job.call.signal?.removeEventListener('abort', job.onAbort);
    job.loads.abort('error' in outcome ? outcome.error : new DOMException('the render is over', 'AbortError'));
    if ('error' in outcome) job.reject(outcome.error);
    else job.resolve(outcome.result);
    this.dispatch();
    if (this.idle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
