/** The `get_usage` tool: GET /v1/usage for the caller's key, the report as structured content. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { noteFacts } from '../observability/request-facts.js';
import { validated } from '../render/schema-refusal.js';
import { PERIOD_SCHEMA, readUsage } from '../usage/read-usage.js';
import type { ToolContext } from './render-tool.js';
import { toolError } from './tool-error.js';

export const USAGE_TOOL_INPUT = z.strictObject({ period: PERIOD_SCHEMA.optional() });

export async function getUsage(context: ToolContext, args: Record<string, unknown>): Promise<CallToolResult> {
  noteFacts({ tool: 'get_usage' });
  try {
    const { period } = validated(USAGE_TOOL_INPUT, args, { period: 'invalid_period' });
    const response = await readUsage(context.core.deps.store, { authorization: context.authorization, period });
    const report = (await response.json()) as Record<string, unknown>;
    const periodId = response.headers.get('x-service-period-id');
    const structured = { ...report, ...(periodId !== null && { period_id: periodId }) };
    const left = Number(report.credits_included) + Number(report.credits_granted) - Number(report.credits_used);
    return {
      content: [
        { type: 'text', text: `${String(report.credits_used)} documents used, ${left} left until ${String(report.period_end)} (plan ${String(report.plan)}).` },
      ],
      structuredContent: structured,
    };
  } catch (error) {
    return toolError(error, context.core.log);
  }
}
