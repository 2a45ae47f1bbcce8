/** `quire key create ACCOUNT [--name N]` and `quire key revoke KEY_ID`. */
import { printJson, withStore } from './admin-store.js';
import { CliError } from './cli-error.js';
import { answerHelpOrVersion, onePositional, parseFlags } from './parse-flags.js';
import { KEY_USAGE } from './usage.js';

export async function keyCommand(args: string[]): Promise<void> {
  answerHelpOrVersion(args, KEY_USAGE);
  const [action, ...rest] = args;
  if (action === 'create') return createKey(rest);
  if (action === 'revoke') return revokeKey(rest);
  throw new CliError(
    `${action === undefined ? 'which action?' : `unknown action "${action}":`} quire key create ACCOUNT … | quire key revoke KEY_ID (see quire key --help)`,
  );
}

async function createKey(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(args, { name: { type: 'string' }, db: { type: 'string' } }, KEY_USAGE);
  const accountId = onePositional(positionals, 'ACCOUNT', KEY_USAGE);
  await withStore(values.db, async (store) => printJson(await store.createApiKey(accountId, values.name ?? null)));
}

async function revokeKey(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(args, { db: { type: 'string' } }, KEY_USAGE);
  const keyId = onePositional(positionals, 'KEY_ID', KEY_USAGE);
  await withStore(values.db, async (store) => {
    await store.revokeApiKey(keyId);
    printJson({ id: keyId, revoked: true });
  });
}
