/**
 * The `render_markdown` tool: the arguments are a render request's JSON body (plus
 * `idempotency_key`, and in stdio mode `path`), run through the same render flow as POST
 * /v1/render — same validation, key, quotas, limits, idempotency and usage counting. The PDF
 * comes back as an embedded resource, or is written to `path`.
 */
import { access, constants, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { renderCounted, type ServiceCore } from '../http/service-core.js';
import { bodyLimit } from '../limits/body-ceiling.js';
import { noteFacts, renderFacts } from '../observability/request-facts.js';
import { DEFAULT_FILENAME, normalizeFilename } from '../render/filename.js';
import { IDEMPOTENCY_KEY_SCHEMA } from '../render/idempotency.js';
import { RENDER_FIELDS } from '../render/render-request.js';
import { validated } from '../render/schema-refusal.js';
import { bodyTooLarge, invalidRequest } from '../service-error.js';
import { toolError } from './tool-error.js';

export interface ToolContext {
  core: ServiceCore;
  /** The caller's `Authorization` value, checked by the flow on every call. */
  authorization: string | undefined;
  /**
   * Over stdio (`quire mcp`): the client may name a file to write the PDF to, each call is logged
   * and counted against requests per minute. Over HTTP the POST carrying the call was counted,
   * and read within the account's body ceiling, as it arrived.
   */
  stdio: boolean;
}

const PATH_SCHEMA = z
  .string({ error: '"path" must be a string.' })
  .min(1, { error: '"path" must name a file.' })
  .describe("Write the PDF to this file (relative to the server's working directory) instead of returning it.");

/** The tool's input: the render body's fields, generated from the schemas that validate them. */
export function renderToolInput(stdio: boolean): z.ZodObject {
  return z.strictObject({
    ...RENDER_FIELDS,
    idempotency_key: IDEMPOTENCY_KEY_SCHEMA.optional(),
    ...(stdio && { path: PATH_SCHEMA.optional() }),
  });
}

export async function renderMarkdown(context: ToolContext, args: Record<string, unknown>): Promise<CallToolResult> {
  const startedAt = performance.now();
  noteFacts({ tool: 'render_markdown' });
  const { core } = context;
  try {
    const { idempotency_key: idempotencyKey, ...body } = args;
    let file: string | undefined;
    if (context.stdio && body.path !== undefined) {
      file = await writableFile(validated(PATH_SCHEMA, body.path));
      delete body.path;
    }
    const response = await renderCounted(
      core,
      {
        authorization: context.authorization,
        idempotencyKey: idempotencyKey as string | undefined,
        body: async (ceiling) => {
          // Nothing has measured arguments read from stdio; the size they would have as a JSON body counts.
          if (context.stdio && Buffer.byteLength(JSON.stringify(body)) > ceiling.bytes) throw bodyTooLarge(bodyLimit(ceiling));
          return { json: body };
        },
        requestCounted: !context.stdio,
        startedAt,
      },
      'mcp',
    );
    noteFacts(renderFacts(response.headers));
    return await deliver(response, { file, filename: typeof body.filename === 'string' ? normalizeFilename(body.filename) : DEFAULT_FILENAME });
  } catch (error) {
    return toolError(error, core.log);
  }
}

/** Checked before anything is spent: the folder exists and may be written. */
async function writableFile(target: string): Promise<string> {
  const file = path.resolve(target);
  try {
    await access(path.dirname(file), constants.W_OK);
  } catch {
    throw invalidRequest('invalid_path', '"path" must be a file in an existing folder the server may write to.');
  }
  return file;
}

async function deliver(response: Response, to: { file: string | undefined; filename: string }): Promise<CallToolResult> {
  const headers = response.headers;
  const summary = {
    pages: Number(headers.get('x-service-pages')),
    sha256: headers.get('x-service-sha256')!,
    signed: headers.get('x-service-signature') === 'signed',
    replay: headers.get('x-service-replay') === 'true',
    ...(headers.has('x-service-resources-failed') && { resources_failed: headers.get('x-service-resources-failed') }),
  };
  const json = headers.get('content-type') === 'application/json' ? ((await response.json()) as Record<string, unknown>) : undefined;
  if (json?.uploaded === true) {
    return {
      content: [{ type: 'text', text: `Uploaded ${pagesText(summary.pages)}; the storage answered ${String(json.status)}.` }],
      structuredContent: { ...json, replay: summary.replay },
    };
  }
  const pdf = json ? Buffer.from(json.pdf as string, 'base64') : Buffer.from(await response.arrayBuffer());
  const facts = { ...summary, bytes: pdf.byteLength, filename: to.filename };
  if (to.file) {
    await writeFile(to.file, pdf);
    return {
      content: [{ type: 'text', text: `Wrote ${pagesText(facts.pages)} (${pdf.byteLength} bytes) to ${to.file}.` }],
      structuredContent: { ...facts, path: to.file },
    };
  }
  return {
    content: [
      { type: 'text', text: `Rendered ${to.filename}: ${pagesText(facts.pages)}, ${pdf.byteLength} bytes, SHA-256 ${facts.sha256}.` },
      {
        type: 'resource',
        resource: { uri: `quire://renders/${facts.sha256}/${encodeURIComponent(to.filename)}`, mimeType: 'application/pdf', blob: pdf.toString('base64') },
      },
    ],
    structuredContent: facts,
  };
}

function pagesText(pages: number): string {
  return `${pages} page${pages === 1 ? '' : 's'}`;
}
