/**
 * The words an account is written in: the plan names and the limits a plan sets. Both the store,
 * which keeps them, and the limits, which give them values, read them here; what each plan allows
 * is decided in src/limits/plans.ts alone.
 */
export const PLAN_IDS = ['free', 'starter', 'pro', 'scale'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** Every per-account number a plan sets; all but `documents` appear in the usage report's `limits`. */
export interface PlanLimits {
  /** Documents included per period. */
  documents: number;
  markdown_kb: number;
  resources_mb: number;
  pages_max: number;
  timeout_s: number;
  concurrency: number;
  requests_per_min: number;
  /** Editor previews; the API never spends them, the usage report shows them. */
  previews_per_hour: number;
}

export type LimitName = keyof PlanLimits;
export type LimitOverrides = Partial<PlanLimits>;

/** How many documents a period includes for an account: the policy the store is given when opened. */
export type IncludedDocuments = (account: { plan: PlanId; overrides: LimitOverrides }) => number;
