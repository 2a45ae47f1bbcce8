/**
 * MCP over Streamable HTTP at /mcp, stateless, held to what POST /v1/render is held to: the
 * deployment's body ceiling first; then the bearer key (401 with WWW-Authenticate, 403 for
 * blocked or unverified accounts); then the account's requests per minute (429), each POST
 * counted as one request and a batch as one per message, so that a render_markdown call inside
 * it is not counted again by the render flow; then the body, read within the account's own
 * ceiling and parsed by the same bounded JSON reader as the API's. Only then does a fresh server
 * and transport answer, in JSON. GET (a server-sent event stream) and DELETE (sessions) are not
 * offered: 405. Concurrent renders are the render flow's to count, as for the API.
 */
import type { Context } from 'hono';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authenticate } from '../admission/authenticate.js';
import { checkDeclaredLength, readBody } from '../http/body.js';
import { parseJsonBody } from '../admission/json-body.js';
import type { ServiceCore } from '../http/service-core.js';
import { accountBodyCeiling, type BodyCeiling } from '../limits/body-ceiling.js';
import { effectiveLimits } from '../limits/plans.js';
import { admitRequests } from '../limits/request-rate.js';
import { createMcpServer } from './mcp-server.js';

export function mcpEndpoint(core: ServiceCore, deploymentCeiling: BodyCeiling): (c: Context) => Promise<Response> {
  return async (c) => {
    checkDeclaredLength(c.req.raw, deploymentCeiling);
    const authorization = c.req.header('authorization');
    const { account } = await authenticate(core.deps.store, authorization);
    const limits = effectiveLimits(account.plan, account.overrides);
    await admitRequests(core.deps.store, account, limits);
    const message = await parseJsonBody(await readBody(c.req.raw, accountBodyCeiling(account.plan, limits, deploymentCeiling.bytes)));
    if (Array.isArray(message) && message.length > 1) await admitRequests(core.deps.store, account, limits, message.length - 1);

    const server = createMcpServer({ core, authorization, stdio: false });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw, { parsedBody: message });
    } finally {
      await server.close();
    }
  };
}
