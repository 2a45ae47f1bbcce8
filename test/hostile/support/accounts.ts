/** Accounts for the suites, written straight into the service's database (a SQLite file in WAL mode, or PostgreSQL). */
import { systemClock } from '../../../src/clock.js';
import type { LimitOverrides, PlanId } from '../../../src/plan-terms.js';
import { openStore, storeLocation } from '../../../src/store/open-store.js';
import { includedDocuments } from '../../../src/limits/plans.js';

export interface SuiteAccount {
  id: string;
  key: string;
}

export async function createAccounts(
  /** A SQLite file or a postgres:// URL. */
  db: string,
  wanted: { plan: PlanId; overrides?: LimitOverrides; email?: string }[],
): Promise<SuiteAccount[]> {
  const store = await openStore(storeLocation(db, {}), systemClock, { included: includedDocuments });
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
