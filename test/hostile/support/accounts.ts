/** Accounts for the suites, written straight into the service's database (WAL lets both use it). */
import { systemClock } from '../../../src/clock.js';
import type { LimitOverrides, PlanId } from '../../../src/limits/plans.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

export interface SuiteAccount {
  id: string;
  key: string;
}

export async function createAccounts(
  dbFile: string,
  wanted: { plan: PlanId; overrides?: LimitOverrides; email?: string }[],
): Promise<SuiteAccount[]> {
  const store = SqliteStore.open(dbFile, systemClock);
  try {
    const accounts: SuiteAccount[] = [];
    for (const [index, { plan, overrides, email }] of wanted.entries()) {
      const account = await store.createAccount({ email: email ?? `suite-${index}-${Date.now()}@example.com`, plan, emailVerified: true });
      if (overrides) await store.updateAccount(account.id, { overrides });
      accounts.push({ id: account.id, key: (await store.createApiKey(account.id, 'suite')).key });
    }
    return accounts;
  } finally {
    await store.close();
  }
}
