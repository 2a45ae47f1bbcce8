/**
 * POST /editor/preview: the editor's pages as pictures. Authenticated like the API; free
 * refusals first (body, budgets), then one preview counted against previews per hour, then the
 * document laid out in a render worker exactly as the PDF would be and its pages drawn as PNG
 * with a PREVIEW mark (`X-Service-Delivery: raster`). No document is reserved or charged.
 */
import { authenticate } from '../http/authenticate.js';
import { parseJsonBody } from '../http/json-body.js';
import { accountBodyCeiling, type BodyCeiling } from '../limits/body-ceiling.js';
import { checkBudgets, measureDocument } from '../limits/budgets.js';
import { effectiveLimits, MIB, PLANS } from '../limits/plans.js';
import { renderLimits } from '../limits/render-limits.js';
import { newFetchId } from '../net/fetch-id.js';
import { failureError } from '../render/render-failure.js';
import { parseRenderRequest } from '../render/render-request.js';
import type { RenderDeps } from '../render/render-flow.js';
import { invalidRequest } from '../service-error.js';
import type { PreviewAsk } from '../workers/protocol.js';
import { admitPreview } from './preview-limit.js';

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
  const { account } = await authenticate(deps.store, incoming.authorization);
  const limits = effectiveLimits(account.plan, account.overrides);
  const json = await parseJsonBody(await incoming.body(accountBodyCeiling(account.plan, limits, deps.deployment.maxBodyBytes)));
  const { ask, rest } = splitPreviewFields(json);
  const request = await parseRenderRequest({ json: rest });
  const measure = measureDocument(request.markdown, request.features);
  checkBudgets(measure, limits, account.plan);
  const admitted = await admitPreview(deps.store, account, limits);

  const pageAndTime = renderLimits(account.plan, limits, deps.deployment);
  const result = await deps.pool.run(
    {
      markdown: request.markdown,
      features: request.features,
      language: request.language,
      resources: 'lenient',
      maxPages: pageAndTime.pages.value,
      resourceBytes: Math.floor(limits.resources_mb * MIB),
      remoteResources: PLANS[account.plan].remoteResources,
      fetchId: newFetchId(),
      preview: ask,
    },
    pageAndTime.time.value * 1000,
    account.id,
  );
  if (!result.ok) {
    if (NOT_STARTED.has(result.failure.kind)) await admitted.giveBack();
    throw failureError(result.failure, { plan: account.plan, limits, renderLimits: pageAndTime, log: deps.log });
  }
  const left = admitted.left;
  const preview = result.output.preview!;
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
    previews_per_hour: limits.previews_per_hour,
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
