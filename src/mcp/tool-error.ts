/**
 * A refusal as an MCP tool error: the API error body as structured content (its `code` the
 * stable contract, `retry_after` when the API would send Retry-After), and a renderer bound under
 * the metadata key `service/renderer_bound` (docs/api.md "Limits").
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answeredError, errorBody } from '../http/error-response.js';
import type { Log } from '../log.js';

export const RENDERER_BOUND_META = 'service/renderer_bound';

export function toolError(error: unknown, log: Log): CallToolResult {
  const known = answeredError(error, log);
  const retryAfter = known.headers['Retry-After'];
  const body = { ...errorBody(known), ...(retryAfter !== undefined && { retry_after: Number(retryAfter) }) };
  const bound = known.details.renderer_bound;
  return {
    isError: true,
    content: [{ type: 'text', text: `${known.code}: ${known.message}` }],
    structuredContent: body,
    ...(bound !== undefined && { _meta: { [RENDERER_BOUND_META]: bound } }),
  };
}
