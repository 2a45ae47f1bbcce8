/**
 * The JSON bodies the service answers with (docs/api.md "The answer", "Usage report", "Error
 * body"), as zod schemas: the code that builds each body is typed by them, and the OpenAPI
 * document is generated from them.
 */
import { z } from 'zod';
import { RENDERER_BOUNDS } from '@quire/engine';
import { LIMIT_NAMES } from '../limits/plans.js';
import { PLAN_IDS } from '../plan-terms.js';
import type { ErrorCode } from '../service-error.js';

const SHA256 = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .describe('Lower-case hex SHA-256 of the delivered bytes (after any seal).');
const COUNT = z.int().min(0);

export const RENDER_JSON_SCHEMA = z
  .strictObject({
    pdf: z.base64().describe('The PDF, standard Base64.'),
    pages: COUNT.describe('Pages of the delivered document.'),
    bytes: COUNT.describe('Decoded length of the PDF.'),
    sha256: SHA256,
    signed: z.boolean().describe('Whether a seal was applied.'),
  })
  .describe('output: json');

export type RenderJson = z.infer<typeof RENDER_JSON_SCHEMA>;

export const UPLOAD_RECEIPT_SCHEMA = z
  .strictObject({
    uploaded: z.literal(true),
    pages: COUNT,
    bytes: COUNT.describe('Size of what the storage received.'),
    sha256: SHA256,
    status: z.int().min(200).max(299).describe("The storage's 2xx status."),
  })
  .describe('output: upload. Never contains the URL; sent only after the storage answered 2xx.');

export type UploadReceipt = z.infer<typeof UPLOAD_RECEIPT_SCHEMA>;

const LIMITS_SCHEMA = z.strictObject(
  Object.fromEntries(LIMIT_NAMES.filter((name) => name !== 'documents').map((name) => [name, z.number().min(0)])) as Record<
    Exclude<(typeof LIMIT_NAMES)[number], 'documents'>,
    z.ZodNumber
  >,
);

export const USAGE_REPORT_SCHEMA = z.strictObject({
  plan: z.enum(PLAN_IDS).describe('The plan the period is counted against.'),
  period_start: z.iso.datetime().describe('When the period opened.'),
  period_end: z.iso.datetime().describe('When it closes.'),
  credits_included: COUNT.describe('Documents the plan includes in the period.'),
  credits_granted: COUNT.describe('Extra documents granted (for example carry-over on upgrade).'),
  credits_used: COUNT.describe('Documents used; the number a 402 is judged on.'),
  limits: LIMITS_SCHEMA.describe(
    'Limits in force this period: markdown_kb, resources_mb, pages_max, timeout_s, concurrency, requests_per_min, previews_per_hour.',
  ),
  keys: z
    .array(z.strictObject({ id: z.string(), name: z.string().nullable().describe('Null once the key is gone.'), credits: COUNT }))
    .describe('Documents charged per API key.'),
});

export type UsageReport = z.infer<typeof USAGE_REPORT_SCHEMA>;

/** docs/api.md "Errors"; `code` is narrowed per status by the OpenAPI document. */
export function errorBodySchema(codes: readonly [ErrorCode, ...ErrorCode[]]) {
  return z
    .strictObject({
      code: z.enum(codes).describe('Stable contract: script against it.'),
      error: z.string().describe('A human sentence; wording may change.'),
      reason: z.string().optional(),
      resource_id: z.string().optional().describe("With resource_fetch_failed: the resource's position, never its URL."),
      limit: z
        .strictObject({
          name: z.string().describe('A plan limit name such as markdown_kb.'),
          value: z.number().describe('The number exceeded.'),
          plan: z.enum(PLAN_IDS).nullable().describe('Null when a deployment ceiling below the plan refused.'),
        })
        .optional(),
      renderer_bound: z.enum(RENDERER_BOUNDS).optional().describe('With reason preparation_limit, when the renderer names a known bound.'),
      status: z.int().nullable().optional().describe("With upload_failed: the storage's status, null when none arrived."),
    })
    .describe('Error body');
}
