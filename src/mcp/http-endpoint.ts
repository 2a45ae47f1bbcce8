/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST is authenticated by its bearer key like
 * the API (401 with WWW-Authenticate, 403 for blocked or unverified accounts), then answered by a
 * fresh server and transport, in JSON. GET (a server-sent event stream) and DELETE (sessions)
 * are not offered: 405.
 */
import type { Context } from 'hono';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authenticate } from '../http/authenticate.js';
import { checkDeclaredLength } from '../http/body.js';
import type { ServiceCore } from '../http/service-core.js';
import { createMcpServer } from './mcp-server.js';

export function mcpEndpoint(core: ServiceCore, maxBodyBytes: number): (c: Context) => Promise<Response> {
  return async (c) => {
    checkDeclaredLength(c.req.raw, maxBodyBytes);
    const authorization = c.req.header('authorization');
    await authenticate(core.deps.store, authorization);
    const server = createMcpServer({ core, authorization, stdio: false, maxBodyBytes });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: maxBodyBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  };
}
