/**
 * The service side of the credential worker: one thread, started on first use, opening one
 * credential at a time; held open only while it has work. A refusal comes back as the same
 * BundleRefusal openCredential throws; a worker that stops fails what it had and is replaced.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { BundleRefusal, type RefusalReason } from '../bundle-refusal.js';
import type { InlineCredential } from '../seal-request.js';
import type { OpenOptions } from './open-credential.js';
import { sealAlgorithm } from './seal-algorithm.js';
import type { SigningIdentity } from './signing-identity.js';

export interface OpenTask {
  id: number;
  credential: InlineCredential;
  options: OpenOptions;
}

export type OpenReply =
  | { id: number; ok: true; key: Uint8Array; chain: Uint8Array[] }
  /** `reason` undefined: the worker failed on something that is not a refusal. */
  | { id: number; ok: false; reason: RefusalReason | undefined };

/** A 64 KiB credential needs little; a parser gone wrong should not take the service's memory. */
const WORKER_HEAP_MB = 128;

export class CredentialThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (identity: SigningIdentity) => void; reject: (error: Error) => void }>();
  private nextId = 0;

  open(credential: InlineCredential, options: OpenOptions): Promise<SigningIdentity> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, credential, options } satisfies OpenTask);
    });
  }

  private start(): Worker {
    const worker = new Worker(new URL('./credential-worker.js', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.unref();
    worker.on('message', (reply: OpenReply) => {
      const task = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (!task) return;
      if (reply.ok) task.resolve(identity(reply.key, reply.chain));
      else task.reject(reply.reason ? new BundleRefusal(reply.reason) : new Error('the credential worker failed'));
    });
    const stopped = () => {
      if (this.worker === worker) this.worker = undefined;
      for (const task of this.pending.values()) task.reject(new Error('the credential worker stopped'));
      this.pending.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', stopped);
    return worker;
  }
}

function identity(keyDer: Uint8Array, chainDer: Uint8Array[]): SigningIdentity {
  const key = createPrivateKey({ key: Buffer.from(keyDer), format: 'der', type: 'pkcs8' });
  return { key, chain: chainDer.map((der) => new X509Certificate(Buffer.from(der))), algorithm: sealAlgorithm(key)! };
}
