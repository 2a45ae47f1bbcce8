/**
 * Upload delivery (docs/api.md "Upload delivery"): one PUT of the PDF to the caller's pre-signed URL.
 * The destination is checked — and its address pinned — before any document is reserved; the
 * PUT later connects to exactly that address. Without an uploader the service answers upload
 * requests 503 `render_unavailable` before reserving anything.
 */
import type { Destination } from '@quire/engine/net';

export type UploadDestination = Destination;

export interface Uploader {
  /** Before any document is reserved: refuses a non-public or blocked destination (a ServiceError). */
  checkDestination(url: string): Promise<UploadDestination>;
  /** Resolves with the storage's 2xx status; throws `upload_failed` (a ServiceError) otherwise. */
  put(destination: UploadDestination, pdf: Uint8Array): Promise<{ status: number }>;
}
