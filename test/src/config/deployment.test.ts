import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DERIVED_BODY_CEILING, DERIVED_PAGE_CEILING, deploymentFromEnv } from '../../../src/config/deployment.js';
import { accountBodyCeiling, planBodyBytes } from '../../../src/limits/body-ceiling.js';
import { MIB, PLANS } from '../../../src/limits/plans.js';
import { PLAN_IDS } from '../../../src/plan-terms.js';

describe('deployment configuration', () => {
  it('should derive the body ceiling from the largest plan, above its Markdown and Base64 resources', () => {
    const scale = PLANS.scale.limits;
    assert.ok(DERIVED_BODY_CEILING > scale.markdown_kb * 1024 + (4 / 3) * scale.resources_mb * MIB);
    assert.ok(DERIVED_BODY_CEILING < 64 * MIB);
    assert.equal(DERIVED_PAGE_CEILING, 2 * scale.pages_max);
  });

  it("should give each account its own plan's body ceiling, or the deployment's when that is lower", () => {
    for (const plan of PLAN_IDS) {
      const limits = PLANS[plan].limits;
      const bytes = planBodyBytes(limits);
      assert.ok(bytes > 2 * limits.markdown_kb * 1024 + (4 / 3) * limits.resources_mb * MIB, plan);
      assert.ok(bytes <= DERIVED_BODY_CEILING, plan);
      assert.deepEqual(accountBodyCeiling(plan, limits, DERIVED_BODY_CEILING), bytes < DERIVED_BODY_CEILING ? { bytes, plan } : { bytes, plan: null });
      assert.deepEqual(accountBodyCeiling(plan, limits, 64 * 1024), { bytes: 64 * 1024, plan: null });
    }
    // Raised limits raise the ceiling with them, up to the deployment's.
    const raised = { ...PLANS.free.limits, markdown_kb: 4_096, resources_mb: 12 };
    assert.equal(accountBodyCeiling('free', raised, DERIVED_BODY_CEILING).bytes, planBodyBytes(PLANS.pro.limits));
  });

  it('should keep the derived values when no variable is set', () => {
    const deployment = deploymentFromEnv({});
    assert.equal(deployment.maxBodyBytes, DERIVED_BODY_CEILING);
    assert.equal(deployment.maxPages, DERIVED_PAGE_CEILING);
    assert.equal(deployment.maxRenderSeconds, Number.POSITIVE_INFINITY);
    assert.equal(deployment.shutdownGraceMs, 30_000);
    assert.equal(deployment.uploadTimeoutMs, 60_000, "docs/api.md's upload time");
  });

  it('should read ceilings, pool and grace from the environment, in their units', () => {
    const deployment = deploymentFromEnv({
      QUIRE_MAX_BODY_MB: '10',
      QUIRE_MAX_PAGES: '500',
      QUIRE_MAX_RENDER_S: '20',
      QUIRE_WORKERS: '3',
      QUIRE_WORKER_MEMORY_MB: '256',
      QUIRE_SHUTDOWN_GRACE_S: '5',
      QUIRE_UPLOAD_TIMEOUT_S: '90',
    });
    assert.equal(deployment.maxBodyBytes, 10 * MIB);
    assert.equal(deployment.maxPages, 500);
    assert.equal(deployment.maxRenderSeconds, 20);
    assert.equal(deployment.workers, 3);
    assert.equal(deployment.queueLimit, 12);
    assert.equal(deployment.workerMemoryMb, 256);
    assert.equal(deployment.shutdownGraceMs, 5000);
    assert.equal(deployment.uploadTimeoutMs, 90_000);
  });

  it('should refuse a value that is not a positive number', () => {
    assert.throws(() => deploymentFromEnv({ QUIRE_WORKERS: 'many' }), /QUIRE_WORKERS/);
    assert.throws(() => deploymentFromEnv({ QUIRE_MAX_PAGES: '-1' }), /QUIRE_MAX_PAGES/);
  });
});
