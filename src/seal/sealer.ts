import type { SealRequest } from './seal-request.js';

/**
 * Applies a customer seal to a rendered PDF, in two steps so that a refused credential costs
 * nothing: `open` checks the credential before any document is reserved (400 `invalid_bundle`,
 * `unknown_signing_identity`, `certificate_expired`), `apply` signs the rendered bytes after the
 * render (422 `signing_failed`). Without a sealer the service answers sealed requests 503
 * `signing_unavailable`.
 */
export interface Sealer {
  open(request: SealRequest, accountId: string): Promise<Seal>;
}

/** An opened credential, ready for the one document of this request. */
export interface Seal {
  /** The sealed PDF, its signature already checked against the bytes returned. */
  apply(pdf: Uint8Array): Promise<Uint8Array>;
}
