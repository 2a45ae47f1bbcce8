/** The 200 answers of POST /v1/render (docs/api.md "The answer") and their headers. */
import { createHash } from 'node:crypto';
import type { RenderJson, UploadReceipt } from '../openapi/response-schemas.js';
import type { RenderOutput } from '../workers/protocol.js';
import { contentDisposition } from './filename.js';
import type { RenderRequest } from './render-request.js';

export interface Delivered {
  request: RenderRequest;
  /** The exact bytes delivered (after any seal). */
  pdf: Uint8Array;
  rendered: RenderOutput;
  queuedMs: number;
  replay: boolean;
  signed: boolean;
  /** `performance.now()` when the request arrived, for `total;dur=`. */
  startedAt: number;
  /** The storage's status, for upload delivery. */
  uploadStatus?: number;
  /** The public identity remote resources were requested under, when any was. */
  fetchId?: string | undefined;
}

const MAX_FAILED_IDS = 16;

export function renderResponse(delivered: Delivered): Response {
  const { request, pdf, rendered } = delivered;
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const headers = new Headers({
    'Server-Timing': serverTiming(delivered),
    'X-Service-Pages': String(rendered.pages),
    'X-Service-Delivery': 'vector',
    'X-Service-SHA256': sha256,
  });
  if (delivered.replay) headers.set('X-Service-Replay', 'true');
  if (delivered.signed) headers.set('X-Service-Signature', 'signed');
  if (delivered.fetchId) headers.set('X-Service-Fetch-Id', delivered.fetchId);
  const { failed, total } = rendered.resources;
  if (request.resources === 'lenient' && failed.length > 0) {
    headers.set('X-Service-Resources-Failed', `${failed.length}/${total}`);
    headers.set('X-Service-Resources-Failed-Ids', failedIds(failed));
  }

  if (request.output === 'pdf') {
    headers.set('Content-Type', 'application/pdf');
    headers.set('Content-Disposition', contentDisposition(request.filename));
    // The PDF is backed by an ordinary ArrayBuffer; the DOM typings (pulled in by highlight.js) insist on saying so.
    return new Response(pdf as Uint8Array<ArrayBuffer>, { status: 200, headers });
  }
  headers.set('Content-Type', 'application/json');
  const body =
    request.output === 'json'
      ? ({ pdf: Buffer.from(pdf).toString('base64'), pages: rendered.pages, bytes: pdf.byteLength, sha256, signed: delivered.signed } satisfies RenderJson)
      : ({ uploaded: true, pages: rendered.pages, bytes: pdf.byteLength, sha256, status: delivered.uploadStatus! } satisfies UploadReceipt);
  return new Response(JSON.stringify(body), { status: 200, headers });
}

/** The engine's phases, the wait for a worker, then `total` for the whole request. */
function serverTiming(delivered: Delivered): string {
  const { setup, render, serialize } = delivered.rendered.timings;
  const total = performance.now() - delivered.startedAt;
  const phases: [string, number][] = [
    ['queue', delivered.queuedMs],
    ['setup', setup],
    ['render', render],
    ['serialize', serialize],
    ['total', total],
  ];
  return phases.map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`).join(', ');
}

/** At most sixteen ids, then `+N` for the rest. */
function failedIds(failed: string[]): string {
  const shown = failed.slice(0, MAX_FAILED_IDS);
  const rest = failed.length - shown.length;
  return rest > 0 ? `${shown.join(',')},+${rest}` : shown.join(',');
}
