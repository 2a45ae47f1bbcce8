/**
 * The service side of the credential workers: two threads, each started on first use and opening
 * one credential at a time, held open only while they have work. Credentials wait in a queue
 * served fairly between accounts, and one account opens one credential at a time: a password
 * check can cost most of a second at the iteration cap (and is a free 400 when it fails), so an
 * account flooding them holds one thread while the other stays for everyone else — and while two
 * accounts flood, a third waits for one derivation, not for the flood. How many an account can
 * queue is bounded by its concurrency slots, inside which credentials are opened (render-flow.ts).
 * A refusal comes back as the same BundleRefusal openCredential throws; a worker that stops fails
 * the one credential it had and is replaced (TaskThread).
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { FairQueue } from '../../limits/fair-queue.js';
import { TaskThread } from '../../workers/task-thread.js';
import { BundleRefusal, type RefusalReason } from '../bundle-refusal.js';
import type { InlineCredential } from '../seal-request.js';
import type { OpenOptions } from './open-credential.js';
import { sealAlgorithm } from './seal-algorithm.js';
import type { SigningIdentity } from './signing-identity.js';

export interface OpenTask {
  credential: InlineCredential;
  options: OpenOptions;
}

export type OpenReply =
  | { ok: true; key: Uint8Array; chain: Uint8Array[] }
  /** `reason` undefined: the worker failed on something that is not a refusal. */
  | { ok: false; reason: RefusalReason | undefined };

/** A 64 KiB credential needs little; a parser gone wrong should not take the service's memory. */
const WORKER_HEAP_MB = 128;
/** Two, so that one account's key derivation never holds the only thread. */
const THREADS = 2;

interface Job {
  account: string;
  task: OpenTask;
  resolve(identity: SigningIdentity): void;
  reject(error: Error): void;
}

interface Lane {
  thread: TaskThread<OpenTask, OpenReply>;
  busy: boolean;
}

const WORKER = new URL('./credential-worker.js', import.meta.url);

export class CredentialThreads {
  private readonly queue = new FairQueue<Job>((job) => job.account, 1);
  private readonly lanes: Lane[] = Array.from({ length: THREADS }, () => ({
    thread: new TaskThread<OpenTask, OpenReply>(WORKER, WORKER_HEAP_MB, 'credential worker'),
    busy: false,
  }));

  /** Opens `credential` for `account`, in its turn. */
  open(credential: InlineCredential, options: OpenOptions, account: string): Promise<SigningIdentity> {
    return new Promise((resolve, reject) => {
      this.queue.push({ account, task: { credential, options }, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const lane of this.lanes) {
      if (lane.busy) continue;
      const job = this.queue.take();
      if (!job) return;
      lane.busy = true;
      lane.thread
        .run(job.task)
        .then((reply) => {
          if (reply.ok) job.resolve(identity(reply.key, reply.chain));
          else job.reject(reply.reason ? new BundleRefusal(reply.reason) : new Error('the credential worker failed'));
        }, job.reject)
        .finally(() => {
          lane.busy = false;
          this.queue.finished(job);
          this.dispatch();
        });
    }
  }
}

function identity(keyDer: Uint8Array, chainDer: Uint8Array[]): SigningIdentity {
  const key = createPrivateKey({ key: Buffer.from(keyDer), format: 'der', type: 'pkcs8' });
  return { key, chain: chainDer.map((der) => new X509Certificate(Buffer.from(der))), algorithm: sealAlgorithm(key)! };
}
