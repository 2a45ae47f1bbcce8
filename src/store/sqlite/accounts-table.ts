import { toAccount, type AccountRow } from '../rows.js';
import { UnknownRecordError, type Account } from '../store.js';
import type { Db } from './database.js';

export function selectAccount(db: Db, accountId: string): Account {
  const row = db.prepare('SELECT * FROM accounts WHERE id = ?').get(accountId) as AccountRow | undefined;
  if (!row) throw new UnknownRecordError('account', accountId);
  return toAccount(row);
}
