/**
 * One worker thread for one kind of short task, so that work whose size the caller cannot cut
 * small never holds the service's event loop: started on first use, holding the process open
 * only while it has work, a task at a time in the order given. A worker that stops (a crash, its
 * heap limit) fails the tasks it had and is replaced on the next one.
 */
import { parentPort, Worker, type Transferable } from 'node:worker_threads';

interface Envelope<T> {
  id: number;
  body: T;
}

export class TaskThread<Task, Reply> {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  private nextId = 0;

  /** `script` calls serveTasks; `heapMb` bounds its old-generation heap; `name` is for errors. */
  constructor(
    private readonly script: URL,
    private readonly heapMb: number,
    private readonly name: string,
  ) {}

  /** The worker's reply to `task`; `transfer` moves buffers to the worker instead of copying them. */
  run(task: Task, transfer: readonly Transferable[] = []): Promise<Reply> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, body: task } satisfies Envelope<Task>, [...transfer]);
    });
  }

  private start(): Worker {
    const worker = new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
    worker.unref();
    worker.on('message', ({ id, body }: Envelope<Reply>) => {
      const task = this.pending.get(id);
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      task?.resolve(body);
    });
    const stopped = () => {
      if (this.worker === worker) this.worker = undefined;
      for (const task of this.pending.values()) task.reject(new Error(`the ${this.name} stopped`));
      this.pending.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', stopped);
    return worker;
  }
}

/** The worker's side: answers every task with `handle`'s reply, its `transfer` buffers moved rather than copied. */
export function serveTasks<Task, Reply>(handle: (task: Task) => Reply, transfer: (reply: Reply) => Transferable[] = () => []): void {
  parentPort!.on('message', ({ id, body }: Envelope<Task>) => {
    const reply = handle(body);
    parentPort!.postMessage({ id, body: reply } satisfies Envelope<Reply>, transfer(reply));
  });
}
