/**
 * Quire's MCP server (official TypeScript SDK): the tools `render_markdown` and `get_usage`,
 * whose input schemas are generated from the zod schemas the HTTP API validates with. The same
 * server runs over stdio (`quire mcp`) and over Streamable HTTP at /mcp.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { logToolCall } from '../observability/request-log.js';
import { jsonSchema } from '../openapi/openapi-document.js';
import { renderMarkdown, renderToolInput, type ToolContext } from './render-tool.js';
import { getUsage, USAGE_TOOL_INPUT } from './usage-tool.js';

const INSTRUCTIONS =
  'Quire renders Markdown (CommonMark, GitHub tables and task lists, math, mermaid diagrams, code highlighting, emoji, barcodes) to tagged PDF. ' +
  "Each render_markdown call costs one document of the account's period unless it replays an idempotency_key; get_usage tells what is left.";

function tools(stdio: boolean): Tool[] {
  return [
    {
      name: 'render_markdown',
      title: 'Render Markdown to PDF',
      description:
        'Renders Markdown to a PDF with the options of POST /v1/render (features, output, filename, language, resources, sign, ' +
        'idempotency_key). Returns the PDF as an embedded application/pdf resource' +
        (stdio ? ', or writes it to `path`' : '') +
        '; output "upload" sends it to upload_url and returns the receipt. Refusals are tool errors whose structured content is the API error body (code, error, reason, limit).',
      inputSchema: jsonSchema(renderToolInput(stdio)) as Tool['inputSchema'],
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    {
      name: 'get_usage',
      title: 'Usage of the account',
      description:
        "The account's usage report for the period open now, or for a period id: plan, documents included, granted and used, limits, spending per key.",
      inputSchema: jsonSchema(USAGE_TOOL_INPUT) as Tool['inputSchema'],
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];
}

export function createMcpServer(context: ToolContext): Server {
  const server = new Server({ name: 'quire', version: '1' }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const listed = tools(context.stdio);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  const call = (name: string, args: Record<string, unknown>) => {
    switch (name) {
      case 'render_markdown':
        return renderMarkdown(context, args);
      case 'get_usage':
        return getUsage(context, args);
      default:
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}".`);
    }
  };
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    const args = params.arguments ?? {};
    // Over HTTP the request's own log line reports the call; over stdio each call gets one.
    return context.stdio ? logToolCall(context.core.log, () => call(params.name, args)) : call(params.name, args);
  });
  return server;
}
