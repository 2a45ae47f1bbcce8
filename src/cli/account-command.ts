/**
 * `quire account create --email E [--plan P] [--unverified]` and
 * `quire account set ACCOUNT [--plan P] [--blocked true|false] [--email-verified true|false] [--limit NAME=VALUE …]`.
 */
import { effectiveLimits, isLimitName, isPlanId, validLimitValue } from '../limits/plans.js';
import { PLAN_IDS, type LimitOverrides, type PlanId } from '../plan-terms.js';
import type { Account } from '../store/store.js';
import { printJson, withStore } from './admin-store.js';
import { CliError } from './cli-error.js';
import { answerHelpOrVersion, onePositional, parseBoolean, parseFlags } from './parse-flags.js';
import { ACCOUNT_USAGE } from './usage.js';

export async function accountCommand(args: string[]): Promise<void> {
  answerHelpOrVersion(args, ACCOUNT_USAGE);
  const [action, ...rest] = args;
  if (action === 'create') return createAccount(rest);
  if (action === 'set') return setAccount(rest);
  throw new CliError(
    `${action === undefined ? 'which action?' : `unknown action "${action}":`} quire account create … | quire account set ACCOUNT … (see quire account --help)`,
  );
}

async function createAccount(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(
    args,
    {
      email: { type: 'string' },
      plan: { type: 'string', default: 'free' },
      unverified: { type: 'boolean', default: false },
      db: { type: 'string' },
    },
    ACCOUNT_USAGE,
  );
  if (positionals.length > 0) throw new CliError(`unexpected argument "${positionals[0]}" (see quire account --help)`);
  const email = values.email;
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new CliError('--email must be an email address');
  const plan = planFlag(values.plan);
  await withStore(values.db, async (store) => {
    const account = await store.createAccount({ email, plan, emailVerified: !values.unverified });
    const { key } = await store.createApiKey(account.id, 'default');
    printJson({ account: account.id, key });
  });
}

async function setAccount(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(
    args,
    {
      plan: { type: 'string' },
      blocked: { type: 'string' },
      'email-verified': { type: 'string' },
      limit: { type: 'string', multiple: true },
      db: { type: 'string' },
    },
    ACCOUNT_USAGE,
  );
  const accountId = onePositional(positionals, 'ACCOUNT', ACCOUNT_USAGE);
  const plan = values.plan === undefined ? undefined : planFlag(values.plan);
  const blocked = parseBoolean('--blocked', values.blocked);
  const emailVerified = parseBoolean('--email-verified', values['email-verified']);
  const overrides = limitFlags(values.limit ?? []);
  await withStore(values.db, async (store) => {
    let account = await store.updateAccount(accountId, {
      ...(blocked !== undefined && { blocked }),
      ...(emailVerified !== undefined && { emailVerified }),
      overrides,
    });
    if (plan !== undefined) account = await store.changePlan(accountId, plan);
    printJson(describe(account));
  });
}

function planFlag(value: string | undefined): PlanId {
  if (!isPlanId(value)) throw new CliError(`--plan must be one of ${PLAN_IDS.join(', ')}`);
  return value;
}

/** `NAME=VALUE` pairs, NAME being `documents` or a field of the usage report's `limits`. */
function limitFlags(pairs: string[]): LimitOverrides {
  const overrides: LimitOverrides = {};
  for (const pair of pairs) {
    const [name = '', raw = ''] = pair.split('=', 2);
    if (!isLimitName(name)) throw new CliError(`--limit: unknown limit "${name}"`);
    const value = Number(raw);
    if (raw === '' || !validLimitValue(name, value)) throw new CliError(`--limit ${name}: "${raw}" is not a valid value`);
    overrides[name] = value;
  }
  return overrides;
}

function describe(account: Account) {
  return {
    account: account.id,
    email: account.email,
    plan: account.plan,
    blocked: account.blocked,
    email_verified: account.emailVerified,
    limits: effectiveLimits(account.plan, account.overrides),
    overrides: account.overrides,
  };
}
