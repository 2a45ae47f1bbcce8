import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/**
 * Gives V8's helper threads (optimising compiler, concurrent and parallel garbage collection)
 * the lowest scheduling priority, for a one-shot command whose main thread is the whole
 * critical path. Node starts four helpers; on a machine with two cores they preempted the
 * main thread, and a cold render of the CommonMark spec took about 7% longer. At low priority
 * they still run, on whatever the main thread leaves free. (There, bin/quire starts Node with one
 * helper, which helps more; this covers more cores and Node started directly.)
 *
 * Linux only: a process may lower its own threads' priority there, and lists them in
 * /proc/self/task. Elsewhere nothing changes. Threads started later (libuv's pool, workers)
 * inherit the starting thread's priority, the main thread's normal one.
 */
export function yieldHelperThreads(): void {
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const thread of threads) {
    const id = Number(thread);
    if (id === process.pid) continue;
    try {
      setPriority(id, constants.priority.PRIORITY_LOW);
    } catch {
      // The thread has ended, or the system refuses: it keeps its priority.
    }
  }
}
