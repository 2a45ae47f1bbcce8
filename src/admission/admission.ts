/**
 * The one way work is admitted, whichever door it came through — POST /v1/render, MCP over HTTP
 * and stdio, the editor's preview and its download — in one order:
 *
 *   authenticate → rate (requests per minute, or the editor's previews per hour) → the body read
 *   within the account's ceiling and checked → the document measured on the text as sent (a
 *   linear pass, off the event loop when long) and held to the plan's budgets → a concurrency
 *   slot → documents left (reserved for a render; for a preview, what decides whether linked
 *   images load) → the render's budgets → the render.
 *
 * Nothing before the rate check reads the body, and nothing before the concurrency slot costs
 * more than a linear pass over a body already bounded by the account's ceiling; every render,
 * preview or download holds one of the account's slots while it runs, so no account can have
 * more work drawing at once than its plan's concurrency.
 */
import type { Store, Account } from '../store/store.js';
import type { Deployment } from '../config/deployment.js';
import { authenticate } from './authenticate.js';
import { accountBodyCeiling, type BodyCeiling } from '../limits/body-ceiling.js';
import { checkBudgets, measureRequest, type DocumentMeasure } from '../limits/budgets.js';
import { effectiveLimits, MIB, PLANS } from '../limits/plans.js';
import type { PlanId, PlanLimits } from '../plan-terms.js';
import { renderLimits, type PageAndTimeLimits } from '../limits/render-limits.js';
import { admitRequests } from '../limits/request-rate.js';
import { admitPreview } from '../limits/preview-rate.js';
import { planRequired } from '../service-error.js';
import type { RenderRequest } from '../render/render-request.js';

/** What a door's request is counted against before its body is read. */
export type Spending =
  /** One of the account's requests per minute. */
  | 'request'
  /** Already counted by the door (a tool call inside an /mcp POST, counted as the POST arrived). */
  | 'counted'
  /** One of the editor's previews per hour, which spends no request and no document. */
  | 'preview';

export interface AdmissionRequest<R extends RenderRequest> {
  authorization: string | undefined;
  spends: Spending;
  /** The request, its body read within `ceiling` (the account's) and validated. */
  read(ceiling: BodyCeiling): Promise<R>;
  /** Checks of what the plan and the deployment can do (seals, upload), made on the request before it is measured. */
  capabilities?(request: R, account: Account): Promise<void> | void;
}

export interface Admitted<R extends RenderRequest> {
  account: Account;
  keyId: string;
  limits: PlanLimits;
  request: R;
  measure: DocumentMeasure;
  /** The preview counted against the hour, given back when its render could not start. */
  preview?: { left: number; giveBack(): Promise<void> };
}

export async function admit<R extends RenderRequest>(deps: { store: Store; deployment: Deployment }, incoming: AdmissionRequest<R>): Promise<Admitted<R>> {
  const { account, keyId } = await authenticate(deps.store, incoming.authorization);
  const limits = effectiveLimits(account.plan, account.overrides);
  let preview: Admitted<R>['preview'];
  if (incoming.spends === 'request') await admitRequests(deps.store, account, limits);
  else if (incoming.spends === 'preview') preview = await admitPreview(deps.store, account, limits);
  // From here a refused preview has spent its hour's token, as a refused request spends its minute's.
  const request = await incoming.read(accountBodyCeiling(account.plan, limits, deps.deployment.maxBodyBytes));
  await incoming.capabilities?.(request, account);
  const measure = await measureRequest(request.markdown, request.features);
  checkBudgets(measure, limits, account.plan);
  checkRemoteResources(measure.remoteCount, request, account);
  return { account, keyId, limits, request, measure, ...(preview && { preview }) };
}

/**
 * Whether the account has documents left in its period: the API loads linked images only for
 * accounts that do. A render reserves one (and so has); a preview, which spends none, asks.
 */
export async function hasDocumentsLeft(store: Store, accountId: string): Promise<boolean> {
  const usage = await store.usage(accountId);
  const period = usage!.period;
  return period.included + period.granted - period.used > 0;
}

/** The budgets a render runs under: pages and time for the plan and deployment, resource bytes, and whether linked images load. */
export interface RenderBudgets {
  /** Pages and seconds: the plan's, or the deployment's ceiling when lower. */
  renderLimits: PageAndTimeLimits;
  resourceBytes: number;
  remoteResources: boolean;
}

export function renderBudgets(admitted: { account: Account; limits: PlanLimits }, deployment: Deployment, documentsLeft: boolean): RenderBudgets {
  const { account, limits } = admitted;
  return {
    renderLimits: renderLimits(account.plan, limits, deployment),
    resourceBytes: Math.floor(limits.resources_mb * MIB),
    remoteResources: PLANS[account.plan].remoteResources && documentsLeft,
  };
}

/** A plan that loads no remote resources refuses a strict document linking one; lenient gets placeholders. */
function checkRemoteResources(remoteCount: number, request: RenderRequest, account: Account): void {
  if (remoteCount === 0 || request.resources !== 'strict' || PLANS[account.plan].remoteResources) return;
  throw planRequired(
    'remote_resources',
    `Linked remote resources need a plan that loads them; this account is on ${planName(account.plan)}. Send "resources": "lenient" for placeholders.`,
  );
}

export function planName(plan: PlanId): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}
