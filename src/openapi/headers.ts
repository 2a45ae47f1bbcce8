/** The response headers of the two operations (docs/api.md "The answer", "Errors"), each with the shape of its value. */
import { z } from 'zod';
import { REQUEST_ID_PATTERN } from '../observability/request-id.js';

const digits = z.string().regex(/^\d+$/);

export const HEADERS = {
  'Cache-Control': { schema: z.literal('no-store'), description: 'Always no-store.' },
  'X-Request-Id': {
    schema: z.string().regex(REQUEST_ID_PATTERN),
    description: "Names this request in the service log: the request's own X-Request-Id when well formed, else a new UUID.",
  },
  'Server-Timing': {
    schema: z.string().regex(/^(?:[a-z]+;dur=\d+(?:\.\d+)?, )*total;dur=\d+(?:\.\d+)?$/),
    description: 'Phase timings (queue, setup, render, serialize) ending with total;dur=<milliseconds>.',
  },
  'X-Service-Pages': { schema: digits, description: 'Page count of the delivered document.' },
  'X-Service-Delivery': { schema: z.literal('vector'), description: 'Always vector on this endpoint.' },
  'X-Service-SHA256': { schema: z.string().regex(/^[0-9a-f]{64}$/), description: 'Lower-case hex SHA-256 of the exact delivered bytes (after any seal).' },
  'Content-Disposition': {
    schema: z.string().regex(/^attachment; filename="[\x20-\x7e]+"(?:; filename\*=UTF-8''\S+)?$/),
    description: 'output: pdf. The ASCII filename always, the RFC 8187 filename* form when the name is not ASCII.',
  },
  'X-Service-Signature': { schema: z.literal('signed'), description: 'When a seal was applied and confirmed.' },
  'X-Service-Replay': { schema: z.literal('true'), description: 'When the request replayed an earlier render under its Idempotency-Key, at no charge.' },
  'X-Service-Fetch-Id': { schema: z.string().regex(/^[A-Za-z0-9_-]+$/), description: 'The public identity remote resources were requested under.' },
  'X-Service-Resources-Failed': { schema: z.string().regex(/^\d+\/\d+$/), description: 'Lenient mode with failures: <failed>/<total>.' },
  'X-Service-Resources-Failed-Ids': {
    schema: z.string().regex(/^[^,]+(?:,[^,]+){0,15}(?:,\+\d+)?$/),
    description: 'Lenient mode with failures: ids of the failed resources, at most sixteen, then +N.',
  },
  'X-Service-Period-Id': { schema: digits, description: 'The id of the period reported, once it is open: pass it as ?period= later.' },
  'Retry-After': { schema: digits, description: 'Seconds to wait before retrying.' },
  'WWW-Authenticate': { schema: z.literal('Bearer'), description: 'On 401.' },
} as const satisfies Record<string, { schema: z.ZodType; description: string }>;

export type HeaderName = keyof typeof HEADERS;
