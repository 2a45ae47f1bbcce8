/**
 * The one error type of the service: every refusal is a ServiceError carrying what docs/api.md
 * "Error body" needs; toServiceError (below) names the one an unknown error is answered with, and
 * src/http/error-response.ts turns it into the response in one place.
 */
import type { PlanId } from './plan-terms.js';
import { LeaseLostError, StoreUnavailableError } from './store/store.js';

export type ErrorCode =
  | 'invalid_request'
  | 'empty_document'
  | 'invalid_bundle'
  | 'wrong_password'
  | 'key_cert_mismatch'
  | 'certificate_expired'
  | 'unknown_signing_identity'
  | 'unauthorized'
  | 'quota_exhausted'
  | 'plan_required'
  | 'account_blocked'
  | 'email_unverified'
  | 'not_found'
  | 'method_not_allowed'
  | 'idempotency_in_progress'
  | 'payload_too_large'
  | 'idempotency_mismatch'
  | 'too_many_resources'
  | 'too_many_pages'
  | 'render_timeout'
  | 'resource_fetch_failed'
  | 'render_failed'
  | 'signing_failed'
  | 'upload_failed'
  | 'rate_limited'
  | 'idempotency_replay_limit'
  | 'internal_error'
  | 'queue_full'
  | 'quota_unavailable'
  | 'render_unavailable'
  | 'signing_unavailable';

/** The plan limit a refusal was judged on; `plan` is null when a deployment ceiling below the plan refused. */
export interface LimitInfo {
  name: string;
  value: number;
  plan: PlanId | null;
}

export interface ErrorDetails {
  reason?: string;
  resource_id?: string;
  limit?: LimitInfo;
  renderer_bound?: string;
  status?: number | null;
}

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const invalidRequest = (reason: string, message: string) => new ServiceError(400, 'invalid_request', message, { reason });

export const emptyDocument = () => new ServiceError(400, 'empty_document', 'The document is empty.');

export const unauthorized = () =>
  new ServiceError(
    401,
    'unauthorized',
    'A valid API key is required: send "Authorization: Bearer <API_KEY>".',
    {},
    {
      'WWW-Authenticate': 'Bearer',
    },
  );

export const accountBlocked = () => new ServiceError(403, 'account_blocked', 'This account is blocked.');

export const emailUnverified = () => new ServiceError(403, 'email_unverified', "This account's email address is not verified yet.");

export const planRequired = (reason: string, message: string) => new ServiceError(403, 'plan_required', message, { reason });

export const quotaExhausted = () => new ServiceError(402, 'quota_exhausted', 'No documents are left in the current period.');

export const notFound = (message = 'There is nothing at this path.') => new ServiceError(404, 'not_found', message);

export const methodNotAllowed = (allow: readonly string[]) =>
  new ServiceError(405, 'method_not_allowed', `This path accepts ${allow.join(', ')}.`, {}, { Allow: allow.join(', ') });

export const idempotencyInProgress = () =>
  new ServiceError(
    409,
    'idempotency_in_progress',
    'A request with this Idempotency-Key is still running.',
    {},
    {
      'Retry-After': '2',
    },
  );

export const idempotencyMismatch = () =>
  new ServiceError(422, 'idempotency_mismatch', 'This Idempotency-Key was used for a different document, features or resource content.');

export const replayLimit = (retryAfterSeconds: number) =>
  new ServiceError(
    429,
    'idempotency_replay_limit',
    'The replays allowed for this Idempotency-Key are used up.',
    {},
    {
      'Retry-After': String(retryAfterSeconds),
    },
  );

export const payloadTooLarge = (reason: string, message: string, limit: LimitInfo) => new ServiceError(413, 'payload_too_large', message, { reason, limit });

/**
 * Over a request-body ceiling (`limit.plan` null for the deployment's, else the account's plan);
 * the connection is closed rather than the rest of the body read.
 */
export const bodyTooLarge = (limit: LimitInfo) =>
  new ServiceError(
    413,
    'payload_too_large',
    `The request body is larger than ${limit.value} KB.`,
    { reason: 'body_limit', limit },
    {
      Connection: 'close',
    },
  );

/** A renderer bound (docs/api.md "Limits"): no `limit`, the bound's name when known. */
export const preparationLimit = (bound: string | undefined) =>
  new ServiceError(413, 'payload_too_large', 'The document reached a limit of the renderer.', {
    reason: 'preparation_limit',
    ...(bound === undefined ? {} : { renderer_bound: bound }),
  });

export const tooManyResources = (message: string, limit: LimitInfo) => new ServiceError(422, 'too_many_resources', message, { limit });

export const tooManyPages = (limit: LimitInfo) => new ServiceError(422, 'too_many_pages', `The document needs more than ${limit.value} pages.`, { limit });

export const renderTimeout = (limit: LimitInfo) => new ServiceError(422, 'render_timeout', `The render took longer than ${limit.value} seconds.`, { limit });

export const resourceFetchFailed = (resourceId: string, reason: string) =>
  new ServiceError(422, 'resource_fetch_failed', `Resource ${resourceId} could not be loaded.`, {
    reason,
    resource_id: resourceId,
  });

/** 422 when the document made the renderer fail; 500 when the worker itself died. */
export const renderFailed = (status: 422 | 500, message: string) => new ServiceError(status, 'render_failed', message);

/** `status` is the storage's answer, or null when none arrived in time. */
export const uploadFailed = (status: number | null) => new ServiceError(424, 'upload_failed', 'The storage did not accept the PDF.', { status });

export const rateLimited = (limit: LimitInfo, retryAfterSeconds: number) =>
  new ServiceError(
    429,
    'rate_limited',
    `Over the account's limit ${limit.name} = ${limit.value}.`,
    { limit },
    {
      'Retry-After': String(retryAfterSeconds),
    },
  );

export const queueFull = () => new ServiceError(503, 'queue_full', 'The render queue is full; retry shortly.', {}, { 'Retry-After': '2' });

export const quotaUnavailable = (message = 'Usage counting is unavailable; nothing was counted.') => new ServiceError(503, 'quota_unavailable', message);

export const renderUnavailable = (message: string) => new ServiceError(503, 'render_unavailable', message);

/** A credential that cannot seal; `reason` is one of docs/api.md "Seals", never what was sent. */
export const invalidBundle = (reason: string, message: string) => new ServiceError(400, 'invalid_bundle', message, { reason });

/** The compatibility form of `invalid_bundle`: the reason answered as the code itself. */
export const bundleRefusedAsCode = (code: 'wrong_password' | 'key_cert_mismatch', message: string) => new ServiceError(400, code, message);

export const certificateExpired = (message: string) => new ServiceError(400, 'certificate_expired', message, { reason: 'certificate_expired' });

export const unknownSigningIdentity = () => new ServiceError(400, 'unknown_signing_identity', 'No stored certificate of this account has that name.');

/** The PDF was rendered but could not be sealed; no unsealed PDF is returned. */
export const signingFailed = () => new ServiceError(422, 'signing_failed', 'The document was rendered but could not be sealed.');

export const signingUnavailable = (reason: string, message: string) => new ServiceError(503, 'signing_unavailable', message, { reason });

export const internalError = () => new ServiceError(500, 'internal_error', 'Something went wrong on our side.');

/** The ServiceError an error is answered with: a store failure is 503 `quota_unavailable`, anything unknown 500. */
export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof StoreUnavailableError) return quotaUnavailable();
  // Late work of an instance that stalled past its lease: refused, the PDF withheld, nothing counted.
  if (error instanceof LeaseLostError) return quotaUnavailable();
  return internalError();
}
