/**
 * POST /v1/render from start to finish, in the order SPEC.md charges for it: everything up to
 * the budgets is refused for free; then the key is claimed and one of the account's concurrency
 * slots taken, inside which the last free checks run — the seal's credential and the upload host,
 * work for the service that one account must not queue without bound; then a document is
 * reserved, the render run in a worker, the PDF delivered and charged — or the document returned
 * with the refusal's code.
 */
import type { Clock } from '../clock.js';
import type { Deployment } from '../config/deployment.js';
import { authenticate } from '../http/authenticate.js';
import { toServiceError } from '../http/error-response.js';
import { accountBodyCeiling, type BodyCeiling } from '../limits/body-ceiling.js';
import { checkBudgets, measureDocument } from '../limits/budgets.js';
import { takeRenderSlot } from '../limits/concurrency.js';
import { effectiveLimits, MIB, PLANS, type PlanId } from '../limits/plans.js';
import { renderLimits } from '../limits/render-limits.js';
import { admitRequests } from '../limits/request-rate.js';
import type { Log } from '../log.js';
import { newFetchId } from '../net/fetch-id.js';
import type { Uploader } from '../net/uploader.js';
import type { Sealer } from '../seal/sealer.js';
import {
  idempotencyMismatch,
  planRequired,
  quotaExhausted,
  rateLimited,
  renderUnavailable,
  signingUnavailable,
} from '../service-error.js';
import { QuotaExhaustedError, type Account, type FrontEnd, type Store } from '../store/store.js';
import type { RenderPool } from '../workers/pool.js';
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
  /** Issue 5 seam: absent until upload delivery is built. */
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
  frontEnd?: FrontEnd;
  startedAt: number;
}

export async function renderDocument(deps: RenderDeps, incoming: IncomingRender): Promise<Response> {
  // Free refusals: who is asking, how often, what they ask for, and whether it fits the plan.
  const { account, keyId } = await authenticate(deps.store, incoming.authorization);
  const limits = effectiveLimits(account.plan, account.overrides);
  if (!incoming.requestCounted) await admitRequests(deps.store, account, limits);
  const idempotencyKey = parseIdempotencyKey(incoming.idempotencyKey);
  const request = await parseRenderRequest(await incoming.body(accountBodyCeiling(account.plan, limits, deps.deployment.maxBodyBytes)));
  await checkCapabilities(deps, request, account, idempotencyKey);
  const measure = measureDocument(request.markdown, request.features);
  checkBudgets(measure, limits, account.plan);
  checkRemoteResources(measure.remoteCount, request, account);

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
    releaseSlot = await takeRenderSlot(deps.store, account.id, limits.concurrency);
    if (!releaseSlot) throw rateLimited({ name: 'concurrency', value: limits.concurrency, plan: account.plan }, 1);
    // A credential that cannot seal is refused before anything is reserved, inside the slot.
    const seal = request.seal && (await deps.sealer!.open(request.seal, account.id));
    // Last of the free checks, being the one that goes to the network: the upload host's DNS.
    const uploadTo = request.uploadUrl === undefined ? undefined : await deps.uploader!.checkDestination(request.uploadUrl);
    await reserve(attempt, account.id, keyId, incoming.frontEnd ?? 'api');

    const pageAndTime = renderLimits(account.plan, limits, deps.deployment);
    const fetchId = newFetchId();
    if (measure.remoteCount > 0) deps.log({ event: 'remote_resources', account: account.id, fetch_id: fetchId, linked: measure.remoteCount });
    const result = await deps.pool.run(
      {
        markdown: request.markdown,
        features: request.features,
        language: request.language,
        resources: request.resources,
        maxPages: pageAndTime.pages.value,
        resourceBytes: Math.floor(limits.resources_mb * MIB),
        remoteResources: PLANS[account.plan].remoteResources,
        fetchId,
      },
      pageAndTime.time.value * 1000,
      account.id,
    );
    if (!result.ok) {
      const error = failureError(result.failure, { plan: account.plan, limits, renderLimits: pageAndTime, log: deps.log });
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

/** What the plan and this deployment can do: seals (issue 6) and upload delivery. */
async function checkCapabilities(
  deps: RenderDeps,
  request: RenderRequest,
  account: Account,
  idempotencyKey: string | undefined,
): Promise<void> {
  if (request.seal) {
    if (!PLANS[account.plan].seals) throw planRequired('seal', `Seals need a paid plan; this account is on ${planName(account.plan)}.`);
    if (idempotencyKey !== undefined) {
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

/** A plan that loads no remote resources refuses a strict document linking one; lenient gets placeholders. */
function checkRemoteResources(remoteCount: number, request: RenderRequest, account: Account): void {
  if (remoteCount === 0 || request.resources !== 'strict' || PLANS[account.plan].remoteResources) return;
  throw planRequired(
    'remote_resources',
    `Linked remote resources need a plan that loads them; this account is on ${planName(account.plan)}. Send "resources": "lenient" for placeholders.`,
  );
}

async function reserve(attempt: Attempt, accountId: string, keyId: string, frontEnd: FrontEnd): Promise<void> {
  try {
    await attempt.reserve(accountId, keyId, frontEnd);
  } catch (error) {
    throw error instanceof QuotaExhaustedError ? quotaExhausted() : error;
  }
}

function planName(plan: PlanId): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}
