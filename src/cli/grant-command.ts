/** `quire grant ACCOUNT --documents N`: extra documents for the account's current period. */
import { printJson, withStore } from './admin-store.js';
import { CliError } from './cli-error.js';
import { onePositional, parseFlags } from './parse-flags.js';
import { GRANT_USAGE } from './usage.js';

export async function grantCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(args, { documents: { type: 'string' }, db: { type: 'string' } }, GRANT_USAGE);
  const accountId = onePositional(positionals, 'ACCOUNT', GRANT_USAGE);
  const documents = Number(values.documents);
  if (!Number.isSafeInteger(documents) || documents <= 0) throw new CliError('--documents must be a positive whole number');
  await withStore(values.db, async (store) => {
    const period = await store.grantDocuments(accountId, documents);
    printJson({
      account: accountId,
      period: period.id,
      period_start: new Date(period.startsAt).toISOString(),
      period_end: new Date(period.endsAt).toISOString(),
      credits_granted: period.granted,
    });
  });
}
