/**
 * Which error codes each operation answers with, by status, and the headers that come with
 * them (docs/api.md "Errors"). The OpenAPI document is built from it; test/openapi provokes every entry
 * against the real service.
 */
import type { ErrorCode } from '../service-error.js';
import type { HeaderName } from './headers.js';

export type Operation = 'render' | 'usage';

export interface ErrorStatus {
  description: string;
  codes: readonly ErrorCode[];
  /** Sent with every answer of this status. */
  headers?: readonly HeaderName[];
  /** Sent with some codes of this status. */
  optionalHeaders?: readonly HeaderName[];
}

const AUTHENTICATION = {
  401: { description: 'Missing, unknown or revoked API key.', codes: ['unauthorized'], headers: ['WWW-Authenticate'] },
} as const;

export const ERROR_STATUSES: Readonly<Record<Operation, Readonly<Record<number, ErrorStatus>>>> = {
  render: {
    400: {
      description:
        'The request is malformed (reason names why), the document is empty, or the seal credential cannot be used. ' +
        'wrong_password and key_cert_mismatch are answered as codes only when QUIRE_SEAL_REASON_CODES=true.',
      codes: ['invalid_request', 'empty_document', 'invalid_bundle', 'certificate_expired', 'unknown_signing_identity', 'wrong_password', 'key_cert_mismatch'],
    },
    ...AUTHENTICATION,
    402: { description: 'No documents left in the current period.', codes: ['quota_exhausted'] },
    403: {
      description: 'The plan lacks the capability, or the account is blocked or unverified.',
      codes: ['plan_required', 'account_blocked', 'email_unverified'],
    },
    409: { description: 'A request under this Idempotency-Key is still running.', codes: ['idempotency_in_progress'], headers: ['Retry-After'] },
    413: {
      description: 'Body, Markdown or resources over a ceiling (limit), or a renderer bound reached (reason preparation_limit, renderer_bound).',
      codes: ['payload_too_large'],
    },
    422: {
      description: 'The document cannot be delivered as asked; the reserved document, if any, was returned.',
      codes: ['idempotency_mismatch', 'too_many_resources', 'too_many_pages', 'render_timeout', 'resource_fetch_failed', 'render_failed', 'signing_failed'],
    },
    424: { description: 'The storage did not accept the PDF (status is its answer, or null).', codes: ['upload_failed'] },
    429: {
      description: 'Over requests per minute or concurrent renders, or the replays of this Idempotency-Key are used up.',
      codes: ['rate_limited', 'idempotency_replay_limit'],
      headers: ['Retry-After'],
    },
    500: { description: 'A render worker died (retry once), or an unclassified failure.', codes: ['render_failed', 'internal_error'] },
    503: {
      description: 'The queue is full (Retry-After: 2), usage counting is unavailable, or the deployment lacks what was asked.',
      codes: ['queue_full', 'quota_unavailable', 'render_unavailable', 'signing_unavailable'],
      optionalHeaders: ['Retry-After'],
    },
  },
  usage: {
    400: { description: 'A malformed period (reason invalid_period).', codes: ['invalid_request'] },
    ...AUTHENTICATION,
    403: { description: 'The account is blocked or unverified.', codes: ['account_blocked', 'email_unverified'] },
    404: { description: 'No such period of this account (unknown and foreign ids answer alike).', codes: ['not_found'] },
    500: { description: 'An unclassified failure.', codes: ['internal_error'] },
    503: { description: 'The usage store is unavailable.', codes: ['quota_unavailable'] },
  },
};
