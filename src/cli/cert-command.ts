/**
 * `quire cert add ACCOUNT --name N (--p12 FILE --password P | --key FILE --cert FILE [--chain FILE] [--password P])`,
 * `quire cert delete ACCOUNT --name N` and `quire cert list ACCOUNT`: certificates stored in an
 * account for its seals. A credential is checked as a sealing request would check it before it
 * is stored, then kept encrypted (the master key: QUIRE_MASTER_KEY, or the key file beside the
 * database). The output never shows the credential.
 */
import { readFileSync } from 'node:fs';
import { systemClock } from '../clock.js';
import { BundleRefusal } from '../seal/bundle-refusal.js';
import { openCredential } from '../seal/credential/open-credential.js';
import { parseSealRequest, type InlineCredential } from '../seal/seal-request.js';
import { sealSettingsFromEnv } from '../seal/seal-settings.js';
import { CredentialVault } from '../seal/stored/credential-vault.js';
import { masterKey } from '../seal/stored/master-key.js';
import { ServiceError } from '../service-error.js';
import type { CertificateSummary } from '../store/store.js';
import { databaseLocation, printJson, withStore } from './admin-store.js';
import { CliError } from './cli-error.js';
import { answerHelpOrVersion, onePositional, parseFlags } from './parse-flags.js';
import { CERT_USAGE } from './usage.js';

export async function certCommand(args: string[]): Promise<void> {
  answerHelpOrVersion(args, CERT_USAGE);
  const [action, ...rest] = args;
  if (action === 'add') return addCertificate(rest);
  if (action === 'delete') return deleteCertificate(rest);
  if (action === 'list') return listCertificates(rest);
  throw new CliError(
    `${action === undefined ? 'which action?' : `unknown action "${action}":`} quire cert add ACCOUNT … | quire cert delete ACCOUNT … | quire cert list ACCOUNT (see quire cert --help)`,
  );
}

async function addCertificate(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(
    args,
    {
      name: { type: 'string' },
      p12: { type: 'string' },
      key: { type: 'string' },
      cert: { type: 'string' },
      chain: { type: 'string' },
      password: { type: 'string' },
      db: { type: 'string' },
    },
    CERT_USAGE,
  );
  const accountId = onePositional(positionals, 'ACCOUNT', CERT_USAGE);
  const name = certificateName(values.name);
  const credential = checkedShape({
    p12: values.p12 && readFileSync(values.p12).toString('base64'),
    key: values.key && credentialText(values.key),
    cert: values.cert && credentialText(values.cert),
    chain: values.chain && credentialText(values.chain),
    password: values.password,
  });
  const identity = checkedCredential(credential);
  const vault = new CredentialVault(masterKey(process.env, databaseLocation(values.db)));
  await withStore(values.db, async (store) => {
    const summary = await store.addCertificate(accountId, {
      name,
      sealed: vault.seal(credential, accountId, name),
      keyType: identity.algorithm.name,
      notAfter: Date.parse(identity.chain[0]!.validTo),
    });
    printJson({ account: accountId, ...summaryJson(summary) });
  });
}

async function deleteCertificate(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(args, { name: { type: 'string' }, db: { type: 'string' } }, CERT_USAGE);
  const accountId = onePositional(positionals, 'ACCOUNT', CERT_USAGE);
  const name = certificateName(values.name);
  await withStore(values.db, async (store) => {
    await store.deleteCertificate(accountId, name);
    printJson({ account: accountId, name, deleted: true });
  });
}

async function listCertificates(args: string[]): Promise<void> {
  const { values, positionals } = parseFlags(args, { db: { type: 'string' } }, CERT_USAGE);
  const accountId = onePositional(positionals, 'ACCOUNT', CERT_USAGE);
  await withStore(values.db, async (store) => {
    printJson({ account: accountId, certificates: (await store.listCertificates(accountId)).map(summaryJson) });
  });
}

/** The name a request will give as `sign.certificate`, held to the same rules. */
function certificateName(name: string | undefined): string {
  if (name === undefined) throw new CliError('--name is required');
  checked(() => parseSealRequest({ certificate: name }));
  return name;
}

/** One credential form, within the sizes a request may send (the flags' undefined values are left out). */
function checkedShape(sign: Record<string, string | undefined>): InlineCredential {
  const given = Object.fromEntries(Object.entries(sign).filter(([, value]) => value !== undefined));
  return checked(() => parseSealRequest(given))!.credential as InlineCredential;
}

/** Opened now, as a seal would open it: a refused credential is not stored. */
function checkedCredential(credential: InlineCredential) {
  try {
    return openCredential(credential, { now: systemClock.now(), maxIterations: sealSettingsFromEnv(process.env).maxIterations });
  } catch (error) {
    if (error instanceof BundleRefusal) throw new CliError(`the credential was refused (${error.reason}): ${error.message}`, 1);
    throw error;
  }
}

/** PEM stays text; anything else is DER, carried as Base64 like a request carries it. */
function credentialText(file: string): string {
  const bytes = readFileSync(file);
  const text = bytes.toString('utf8');
  return text.includes('-----BEGIN ') ? text : bytes.toString('base64');
}

function checked<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ServiceError) throw new CliError(error.message.replaceAll('"sign.', '"--').replaceAll('"sign"', 'the credential flags'));
    throw error;
  }
}

function summaryJson(summary: CertificateSummary) {
  return {
    name: summary.name,
    key_type: summary.keyType,
    not_after: new Date(summary.notAfter).toISOString(),
    created_at: new Date(summary.createdAt).toISOString(),
  };
}
