/**
 * Request-body ceilings (docs/api.md "Limits"). A plan's ceiling is its Markdown doubled
 * (JSON escaping), its resources plus a third (Base64), room for seal credentials and a mebibyte
 * for the rest of the JSON (or an MCP message around it). The deployment's ceiling is the largest
 * plan's; each account's body is read against its own plan's, or the deployment's when lower.
 */
import type { LimitInfo } from '../service-error.js';
import { KIB, MIB } from './plans.js';
import type { PlanId, PlanLimits } from '../plan-terms.js';

/** Four credential fields (p12, key, cert, chain) at their decoded cap, Base64-encoded. */
const SEAL_CREDENTIALS_BYTES = (4 / 3) * 4 * 65_536;

export interface BodyCeiling {
  bytes: number;
  /** The plan whose ceiling this is; null for the deployment's. */
  plan: PlanId | null;
}

export function planBodyBytes(limits: Pick<PlanLimits, 'markdown_kb' | 'resources_mb'>): number {
  return Math.ceil(2 * limits.markdown_kb * KIB + (4 / 3) * limits.resources_mb * MIB + SEAL_CREDENTIALS_BYTES + MIB);
}

/** The account's ceiling: its plan's (with the account's overrides), unless the deployment's is lower. */
export function accountBodyCeiling(plan: PlanId, limits: PlanLimits, deploymentBytes: number): BodyCeiling {
  const bytes = planBodyBytes(limits);
  return bytes < deploymentBytes ? { bytes, plan } : { bytes: deploymentBytes, plan: null };
}

/** The ceiling as a refusal's `limit`, in kibibytes. */
export function bodyLimit(ceiling: BodyCeiling): LimitInfo {
  return { name: 'body_kb', value: Math.floor(ceiling.bytes / KIB), plan: ceiling.plan };
}
