/**
 * The service side of the credential worker: one thread (TaskThread) opening one credential at
 * a time. A refusal comes back as the same BundleRefusal openCredential throws.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
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

export class CredentialThread {
  private readonly thread = new TaskThread<OpenTask, OpenReply>(new URL('./credential-worker.js', import.meta.url), WORKER_HEAP_MB, 'credential worker');

  async open(credential: InlineCredential, options: OpenOptions): Promise<SigningIdentity> {
    const reply = await this.thread.run({ credential, options });
    if (!reply.ok) throw reply.reason ? new BundleRefusal(reply.reason) : new Error('the credential worker failed');
    return identity(reply.key, reply.chain);
  }
}

function identity(keyDer: Uint8Array, chainDer: Uint8Array[]): SigningIdentity {
  const key = createPrivateKey({ key: Buffer.from(keyDer), format: 'der', type: 'pkcs8' });
  return { key, chain: chainDer.map((der) => new X509Certificate(Buffer.from(der))), algorithm: sealAlgorithm(key)! };
}
