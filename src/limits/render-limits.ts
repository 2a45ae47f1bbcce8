import type { Deployment } from '../config/deployment.js';
import type { LimitInfo } from '../service-error.js';
import type { PlanId, PlanLimits } from './plans.js';

/** Page and time limits one render runs under: the plan's, or the deployment's ceiling when lower. */
export interface RenderLimits {
  pages: LimitInfo;
  /** `value` in seconds. */
  time: LimitInfo;
}

export function renderLimits(plan: PlanId, limits: PlanLimits, deployment: Deployment): RenderLimits {
  return {
    pages: lowerOf('pages_max', limits.pages_max, deployment.maxPages, plan),
    time: lowerOf('timeout_s', limits.timeout_s, deployment.maxRenderSeconds, plan),
  };
}

function lowerOf(name: string, planValue: number, ceiling: number, plan: PlanId): LimitInfo {
  return ceiling < planValue ? { name, value: ceiling, plan: null } : { name, value: planValue, plan };
}
