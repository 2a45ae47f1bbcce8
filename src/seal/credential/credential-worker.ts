/**
 * Worker thread that opens credentials, so that key derivation — up to about a second for a
 * legacy bundle at the iteration cap, in node-forge's JavaScript — never holds the service's
 * event loop. Answers the key and the chain as DER; a refusal as its reason alone.
 */
import { serveTasks } from '../../workers/task-thread.js';
import { BundleRefusal } from '../bundle-refusal.js';
import type { OpenReply, OpenTask } from './credential-threads.js';
import { openCredential } from './open-credential.js';

serveTasks<OpenTask, OpenReply>(({ credential, options }) => {
  try {
    const identity = openCredential(credential, options);
    return { ok: true, key: identity.key.export({ type: 'pkcs8', format: 'der' }), chain: identity.chain.map((certificate) => certificate.raw) };
  } catch (error) {
    // Anything but a refusal is a bug; its message is not sent, as it could quote the input.
    return { ok: false, reason: error instanceof BundleRefusal ? error.reason : undefined };
  }
});
