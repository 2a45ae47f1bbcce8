/** `quire key create ACCOUNT [--name N]` and `quire key revoke KEY_ID`. */
import { printJson, withStore } from './admin-store.js';
import { CliError } from './cli-error.js';
import { onePositional, parseFlags } from './parse-flags.js';

export async function keyCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'create') return createKey(rest);
  if (action === 'revoke') return revokeKey(rest);
  throw new CliError('usage: quire key create ACCOUNT [--name N] | quire key revoke KEY_ID');
}

async function createKey(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(args, { name: { type: 'string' }, db: { type: 'string' } });
  const accountId = onePositional(positionals, 'ACCOUNT');
  await withStore(values.db, async (store) => printJson(await store.createApiKey(accountId, values.name ?? null)));
}

async function revokeKey(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(args, { db: { type: 'string' } });
  const keyId = onePositional(positionals, 'KEY_ID');
  await withStore(values.db, async (store) => {
    await store.revokeApiKey(keyId);
    printJson({ id: keyId, revoked: true });
  });
}
