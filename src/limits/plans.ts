import { PLAN_IDS, type IncludedDocuments, type LimitName, type LimitOverrides, type PlanId, type PlanLimits } from '../plan-terms.js';

/**
 * Plan values of docs/api.md "Limits", the one place they are written down. Accounts may carry
 * overrides of any of them ("higher limits beyond the plans are arranged per account").
 */
export interface Plan {
  id: PlanId;
  limits: PlanLimits;
  /** Free re-renders under one completed Idempotency-Key. */
  replaysPerKey: number;
  /** Whether customer seals are offered (docs/api.md: Free gets 403 plan_required). */
  seals: boolean;
  /** Whether linked (remote) resources are loaded; without, strict documents that link one get 403 plan_required. */
  remoteResources: boolean;
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: 'free',
    limits: { documents: 100, markdown_kb: 512, resources_mb: 1.5, pages_max: 20, timeout_s: 30, concurrency: 1, requests_per_min: 5, previews_per_hour: 120 },
    replaysPerKey: 2,
    seals: false,
    remoteResources: true,
  },
  starter: {
    id: 'starter',
    limits: {
      documents: 1_000,
      markdown_kb: 2_048,
      resources_mb: 6,
      pages_max: 200,
      timeout_s: 60,
      concurrency: 2,
      requests_per_min: 30,
      previews_per_hour: 300,
    },
    replaysPerKey: 5,
    seals: true,
    remoteResources: true,
  },
  pro: {
    id: 'pro',
    limits: {
      documents: 10_000,
      markdown_kb: 4_096,
      resources_mb: 12,
      pages_max: 1_000,
      timeout_s: 90,
      concurrency: 5,
      requests_per_min: 120,
      previews_per_hour: 600,
    },
    replaysPerKey: 5,
    seals: true,
    remoteResources: true,
  },
  scale: {
    id: 'scale',
    limits: {
      documents: 100_000,
      markdown_kb: 8_192,
      resources_mb: 24,
      pages_max: 2_048,
      timeout_s: 120,
      concurrency: 20,
      requests_per_min: 600,
      previews_per_hour: 1_200,
    },
    replaysPerKey: 5,
    seals: true,
    remoteResources: true,
  },
};

/** docs/api.md "Limits": the same for every plan. */
export const MAX_EMBEDDED_RESOURCES = 500;
export const MAX_REMOTE_RESOURCES = 50;

export const LIMIT_NAMES = Object.keys(PLANS.free.limits) as LimitName[];

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);
}

export function isLimitName(value: string): value is LimitName {
  return (LIMIT_NAMES as string[]).includes(value);
}

/** The limits in force for an account on `plan`: the plan's values with the account's overrides on top. */
export function effectiveLimits(plan: PlanId, overrides: LimitOverrides): PlanLimits {
  return { ...PLANS[plan].limits, ...overrides };
}

/** The store's period policy: the documents of the account's plan, or its override. */
export const includedDocuments: IncludedDocuments = (account) => effectiveLimits(account.plan, account.overrides).documents;

/** Checks one override value: whole numbers, except `resources_mb`, which may be fractional. */
export function validLimitValue(name: LimitName, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (name === 'resources_mb') return value > 0;
  if (name === 'documents') return Number.isSafeInteger(value) && value >= 0;
  return Number.isSafeInteger(value) && value > 0;
}

export const KIB = 1024;
export const MIB = 1024 * 1024;
