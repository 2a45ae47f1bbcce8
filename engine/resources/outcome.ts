export interface ResourceOutcome {
  /** Resources the document referenced and the engine tried to load. */
  total: number;
  /** Position ids (1-based, in document order) of those that failed in lenient mode. */
  failed: string[];
  /** Bytes loaded for all resources together. */
  bytes: number;
  /**
   * SHA-256 (hex) over every loaded resource's position and bytes, in document order: two
   * renders of one document saw the same resource content exactly when their digests agree.
   */
  digest: string;
}
