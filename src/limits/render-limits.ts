import type { Deployment } from '../config/deployment.js';
import type { LimitInfo } from '../service-error.js';
import type { PlanId, PlanLimits } from '../plan-terms.js';

/** Page and time limits one render runs under: the plan's, or the deployment's ceiling when lower. */
export interface PageAndTimeLimits {
  pages: LimitInfo;
  /** `value` in seconds. */
  time: LimitInfo;
}

export function renderLimits(plan: PlanId, limits: PlanLimits, deployment: Deployment): PageAndTimeLimits {
  return {
    pages: lowerOf('pages_max', limits.pages_max, deployment.maxPages, plan),
    time: lowerOf('timeout_s', limits.timeout_s, deployment.maxRenderSeconds, plan),
  };
}

/**
 * A preview is drawn while a writer types: one that takes longer than this is no preview, and
 * holding a render worker for a plan's whole render time (30 to 120 s) per preview would let a
 * few accounts' previews keep every worker busy.
 */
export const PREVIEW_SECONDS = 10;

/** The limits of an editor preview: the render's, its time held to PREVIEW_SECONDS (`limit.plan` null when that is lower). */
export function previewLimits(render: PageAndTimeLimits): PageAndTimeLimits {
  return render.time.value <= PREVIEW_SECONDS ? render : { ...render, time: { name: render.time.name, value: PREVIEW_SECONDS, plan: null } };
}

function lowerOf(name: string, planValue: number, ceiling: number, plan: PlanId): LimitInfo {
  return ceiling < planValue ? { name, value: ceiling, plan: null } : { name, value: planValue, plan };
}
