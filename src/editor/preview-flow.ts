/**
 * POST /editor/preview: the editor's pages as pictures. Admitted as every door admits work
 * (admission.ts), counted against previews per hour instead of requests per minute, holding one
 * of the account's concurrency slots while it draws; then the document is laid out in a render
 * worker exactly as the PDF would be and its pages drawn as PNG with a PREVIEW mark
 * (`X-Service-Delivery: raster`). No document is reserved or charged, and linked images load
 * only while the account has documents left.
 */
import { parseJsonBody } from '../admission/json-body.js';
import type { BodyCeiling } from '../limits/body-ceiling.js';
import { previewLimits } from '../limits/render-limits.js';
import { newFetchId } from '../net/fetch-id.js';
import { admit, hasDocumentsLeft, renderBudgets } from '../admission/admission.js';
import { takeRenderSlot } from '../limits/concurrency.js';
import { failureError } from '../render/render-failure.js';
import { parseRenderRequest } from '../render/render-request.js';
import type { RenderDeps } from '../render/render-flow.js';
import { invalidRequest } from '../service-error.js';
import type { PreviewAsk, PreviewOutput } from '../workers/protocol.js';

export interface IncomingPreview {
  authorization: string | undefined;
  body(ceiling: BodyCeiling): Promise<Uint8Array>;
}

/** Failures before the engine ran: the preview is not counted. */
const NOT_STARTED: ReadonlySet<string> = new Set(['queue_full', 'unavailable']);

/** A page hash as renderPreview makes them. */
const PAGE_HASH = /^[0-9a-f]{32}$/;
const MAX_KNOWN_PAGES = 4096;
/** Beyond every plan's page limit. */
const MAX_FOCUS_PAGE = 100_000;

export async function previewDocument(deps: RenderDeps, incoming: IncomingPreview): Promise<Response> {
  const admitted = await admit(deps, {
    authorization: incoming.authorization,
    spends: 'preview',
    read: async (ceiling) => {
      const { ask, rest } = splitPreviewFields(await parseJsonBody(await incoming.body(ceiling)));
      return { ...(await parseRenderRequest({ json: rest })), ask };
    },
  });
  const { account, limits, request } = admitted;
  const counted = admitted.preview!;
  // Refused here, the preview stays counted: its body has been read and measured, and a refusal
  // given back would let a client whose slot is busy send previews without end.
  const releaseSlot = await takeRenderSlot(deps.store, account, limits);
  try {
    const budgets = renderBudgets(admitted, deps.deployment, await hasDocumentsLeft(deps.store, account.id));
    const limitsOfPreview = previewLimits(budgets.renderLimits);
    const result = await deps.pool.run(
      {
        markdown: request.markdown,
        features: request.features,
        language: request.language,
        resources: 'lenient',
        maxPages: limitsOfPreview.pages.value,
        resourceBytes: budgets.resourceBytes,
        remoteResources: budgets.remoteResources,
        fetchId: newFetchId(),
        preview: request.ask,
      },
      limitsOfPreview.time.value * 1000,
      account.id,
    );
    if (!result.ok) {
      if (NOT_STARTED.has(result.failure.kind)) await counted.giveBack();
      throw failureError(result.failure, { plan: account.plan, limits, renderLimits: limitsOfPreview, log: deps.log });
    }
    return previewResponse(result.output.preview!, counted.left, limits.previews_per_hour);
  } finally {
    await releaseSlot().catch((error: unknown) => deps.log({ event: 'slot_give_back_failed', error: String(error) }));
  }
}

function previewResponse(preview: PreviewOutput, left: number, perHour: number): Response {
  const body = {
    pages: preview.pages.map((page) => ({
      hash: page.hash,
      width: page.width,
      height: page.height,
      png: page.png === null ? null : Buffer.from(page.png).toString('base64'),
      band: page.band,
      lines: page.lines,
    })),
    warnings: preview.warnings,
    previews_left: left,
    previews_per_hour: perHour,
  };
  return new Response(JSON.stringify(body), {
    headers: {
      'Content-Type': 'application/json',
      'X-Service-Delivery': 'raster',
      'X-Service-Pages': String(preview.pages.length),
      'X-Service-Previews-Left': String(left),
    },
  });
}

/**
 * `known_pages`, `shown_pages` and `focus_page` are the preview's own fields; everything else is
 * a render body, checked as POST /v1/render checks it.
 */
function splitPreviewFields(json: unknown): { ask: PreviewAsk; rest: unknown } {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { ask: { knownPages: [], shownPages: [], focusPage: 0 }, rest: json };
  const { known_pages: known = [], shown_pages: shown = [], focus_page: focus = 0, ...rest } = json as Record<string, unknown>;
  if (!Array.isArray(known) || known.length > MAX_KNOWN_PAGES || !known.every((hash) => typeof hash === 'string' && PAGE_HASH.test(hash))) {
    throw invalidRequest('invalid_field', `"known_pages" must be a list of at most ${MAX_KNOWN_PAGES} page hashes.`);
  }
  if (!Array.isArray(shown) || shown.length > MAX_KNOWN_PAGES || !shown.every((hash) => hash === null || (typeof hash === 'string' && PAGE_HASH.test(hash)))) {
    throw invalidRequest('invalid_field', `"shown_pages" must be a list of at most ${MAX_KNOWN_PAGES} page hashes or nulls, one per page shown.`);
  }
  if (typeof focus !== 'number' || !Number.isInteger(focus) || focus < 0 || focus > MAX_FOCUS_PAGE) {
    throw invalidRequest('invalid_field', `"focus_page" must be a page number from 0 to ${MAX_FOCUS_PAGE}.`);
  }
  return { ask: { knownPages: known as string[], shownPages: shown as (string | null)[], focusPage: focus }, rest };
}
