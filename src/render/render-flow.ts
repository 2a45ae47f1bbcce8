/**
 * POST /v1/render from start to finish, in the order docs/api.md charges for it: everything up to
 * the budgets is refused for free; then the key is claimed and one of the account's concurrency
 * slots taken, inside which the last free checks run — the seal's credential and the upload host,
 * work for the service that one account must not queue without bound; then a document is
 * reserved, the render run in a worker, the PDF delivered and charged — or the document returned
 * with the refusal's code.
 */
import type { Clock } from '../clock.js';
import type { Deployment } from '../config/deployment.js';
import { toServiceError } from '../service-error.js';
import type { BodyCeiling } from '../limits/body-ceiling.js';
import { PLANS } from '../limits/plans.js';
import type { Log } from '../log.js';
import { newFetchId } from '../net/fetch-id.js';
import type { Uploader } from '../net/uploader.js';
import type { Sealer } from '../seal/sealer.js';
import { idempotencyMismatch, planRequired, quotaExhausted, renderUnavailable, signingUnavailable } from '../service-error.js';
import { QuotaExhaustedError, type Account, type ReservedThrough, type Store } from '../store/store.js';
import type { RenderPool } from '../workers/pool.js';
import { admit, planName, renderBudgets } from '../admission/admission.js';
import { takeRenderSlot } from '../limits/concurrency.js';
import { Attempt } from './attempt.js';
import { claimKey, fingerprint, parseIdempotencyKey } from './idempotency.js';
import { failureError, pagesAtFailure } from './render-failure.js';
import { parseRenderRequest, type RenderBody, type RenderRequest } from './render-request.js';
import { renderResponse } from './render-response.js';

export interface RenderDeps {
  store: Store;
  clock: Clock;
  pool: RenderPool;
  deployment: Deployment;
  fingerprintKey: () => Promise<Buffer>;
  log: Log;
  /** Absent where the deployment does not seal: sealed requests answer 503 `signing_unavailable`. */
  sealer?: Sealer;
  /** Absent where the deployment has no outbound address for storage: uploads answer 503 `render_unavailable`. */
  uploader?: Uploader;
}

export interface IncomingRender {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The render body, read within `ceiling` (the account's) or refused with 413. */
  body(ceiling: BodyCeiling): Promise<RenderBody>;
  /**
   * True when the front-end has already counted this request against the account's requests
   * per minute: a tool call inside an /mcp POST, which was counted as it arrived.
   */
  requestCounted?: boolean;
  /** `editor` for the web editor's download: charged to the account, outside every key's spending. Default `api`. */
  frontEnd?: ReservedThrough;
  startedAt: number;
}

export async function renderDocument(deps: RenderDeps, incoming: IncomingRender): Promise<Response> {
  // Free refusals, in the order every door admits work (admission.ts).
  const { account, keyId, limits, request, measure } = await admit(deps, {
    authorization: incoming.authorization,
    spends: incoming.requestCounted ? 'counted' : 'request',
    read: async (ceiling) => {
      const idempotencyKey = parseIdempotencyKey(incoming.idempotencyKey);
      return { ...(await parseRenderRequest(await incoming.body(ceiling))), idempotencyKey };
    },
    capabilities: (request, account) => checkCapabilities(deps, request, account),
  });
  const { idempotencyKey } = request;

  // From here every way out settles the attempt: the key is released, a reserved document returned.
  const claim =
    idempotencyKey === undefined
      ? undefined
      : await claimKey(deps.store, deps.clock, {
          accountId: account.id,
          key: idempotencyKey,
          fingerprint: fingerprint(await deps.fingerprintKey(), request),
          replayAllowance: PLANS[account.plan].replaysPerKey,
        });
  const attempt = new Attempt(deps.store, claim, deps.log);
  let releaseSlot: (() => Promise<void>) | undefined;
  try {
    releaseSlot = await takeRenderSlot(deps.store, account, limits);
    // A credential that cannot seal is refused before anything is reserved, inside the slot.
    const seal = request.seal && (await deps.sealer!.open(request.seal, account.id));
    // Last of the free checks, being the one that goes to the network: the upload host's DNS.
    const uploadTo = request.uploadUrl === undefined ? undefined : await deps.uploader!.checkDestination(request.uploadUrl);
    await reserve(attempt, account.id, keyId, incoming.frontEnd ?? 'api');

    // A reserved document is a document left: linked images load where the plan loads them.
    const budgets = renderBudgets({ account, limits }, deps.deployment, true);
    const fetchId = newFetchId();
    if (measure.remoteCount > 0) deps.log({ event: 'remote_resources', account: account.id, fetch_id: fetchId, linked: measure.remoteCount });
    const result = await deps.pool.run(
      {
        markdown: request.markdown,
        features: request.features,
        language: request.language,
        resources: request.resources,
        maxPages: budgets.renderLimits.pages.value,
        resourceBytes: budgets.resourceBytes,
        remoteResources: budgets.remoteResources,
        fetchId,
      },
      budgets.renderLimits.time.value * 1000,
      account.id,
    );
    if (!result.ok) {
      const error = failureError(result.failure, { plan: account.plan, limits, renderLimits: budgets.renderLimits, log: deps.log });
      await attempt.fail(error.code, pagesAtFailure(result.failure));
      throw error;
    }

    if (!attempt.sameResources(result.output.resources.digest)) {
      await attempt.fail('idempotency_mismatch');
      throw idempotencyMismatch();
    }
    const pdf = seal ? await seal.apply(result.output.pdf) : result.output.pdf;
    const uploadStatus = uploadTo ? (await deps.uploader!.put(uploadTo, pdf)).status : undefined;
    await attempt.succeed(result.output.pages, result.output.resources.digest);
    return renderResponse({
      request,
      pdf,
      rendered: result.output,
      queuedMs: result.queuedMs,
      replay: attempt.isReplay,
      signed: seal !== undefined,
      startedAt: incoming.startedAt,
      uploadStatus,
      fetchId: result.output.remoteRequests > 0 ? fetchId : undefined,
    });
  } catch (error) {
    await attempt.fail(toServiceError(error).code);
    throw error;
  } finally {
    await releaseSlot?.().catch((error: unknown) => deps.log({ event: 'slot_give_back_failed', error: String(error) }));
  }
}

/** What the plan and this deployment can do: seals and upload delivery. */
function checkCapabilities(deps: RenderDeps, request: RenderRequest & { idempotencyKey: string | undefined }, account: Account): void {
  if (request.seal) {
    if (!PLANS[account.plan].seals) throw planRequired('seal', `Seals need a paid plan; this account is on ${planName(account.plan)}.`);
    if (request.idempotencyKey !== undefined) {
      throw signingUnavailable('idempotency_key', 'A sealed request cannot carry an Idempotency-Key on this deployment.');
    }
    if (!deps.sealer) throw signingUnavailable('not_configured', 'Sealing is not available on this deployment.');
    const { reason, location, contact } = request.seal;
    if (!deps.deployment.resourceBackend && (reason ?? location ?? contact) !== undefined) {
      throw signingUnavailable('metadata_unavailable', 'Seal reason, location and contact are not available on this deployment; send the seal without them.');
    }
  }
  if (request.uploadUrl !== undefined) {
    if (!deps.uploader) throw renderUnavailable('Upload delivery is not available on this deployment.');
  }
}

async function reserve(attempt: Attempt, accountId: string, keyId: string, frontEnd: ReservedThrough): Promise<void> {
  try {
    await attempt.reserve(accountId, keyId, frontEnd);
  } catch (error) {
    throw error instanceof QuotaExhaustedError ? quotaExhausted() : error;
  }
}
