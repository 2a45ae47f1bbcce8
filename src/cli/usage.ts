/**
 * What `quire --help` and each command's `--help` print. Plain text, loaded by every command:
 * `quire render`'s own help, which lists the engine's feature switches, is in render/arguments.ts.
 */

/** One command's help, and its name as `see quire NAME --help` gives it. */
export interface Usage {
  command: string;
  help: string;
}

const DB_OPTION = `  --db PATH|URL           the database: a SQLite file or a postgres:// URL (default: QUIRE_DB_URL,
                          else QUIRE_DB, else data/quire.db in the working folder)`;

const COMMON = `  -h, --help              this help
  -v, --version           the version of quire`;

export const OVERVIEW = `usage: quire <command> [options]

commands:
  render <file.md | -> [-o out.pdf]   render Markdown to PDF
  serve [--port N] [--host H] [--db PATH]
                                      run the HTTP service (PORT, default 8080; QUIRE_DB, default data/quire.db;
                                      QUIRE_OPERATOR_PORT puts /metrics, /healthz, /readyz on a port of their own)
  mcp [--db PATH]                     run the MCP server on stdio for the account of QUIRE_API_KEY
  account create --email E [--plan free|starter|pro|scale] [--unverified] [--db PATH]
                                      create an account and its first API key
  account set ACCOUNT [--plan P] [--blocked true|false] [--email-verified true|false]
              [--limit NAME=VALUE …] [--db PATH]
                                      change an account (a plan change starts a new period)
  key create ACCOUNT [--name N] [--db PATH]
                                      issue an API key (shown once)
  key revoke KEY_ID [--db PATH]       revoke an API key
  grant ACCOUNT --documents N [--db PATH]
                                      add documents to the current period
  cert add ACCOUNT --name N (--p12 FILE --password P | --key FILE --cert FILE [--chain FILE] [--password P]) [--db PATH]
                                      store a certificate for the account's seals (encrypted at rest)
  cert delete ACCOUNT --name N [--db PATH]
                                      delete a stored certificate
  cert list ACCOUNT [--db PATH]       list the account's stored certificates

options:
${COMMON}

quire COMMAND --help describes one command.
`;

export const SERVE_USAGE: Usage = {
  command: 'serve',
  help: `usage: quire serve [--port N] [--host H] [--db PATH|URL]

Runs the HTTP service (the API, the MCP endpoint and the web editor) until SIGTERM or SIGINT.

options:
  --port N                the port to listen on, 0 to 65535 (default: PORT, else 8080)
  --host H                the address to listen on (default: HOST, else 0.0.0.0)
${DB_OPTION}
${COMMON}

QUIRE_OPERATOR_PORT puts /metrics, /healthz and /readyz on a port of their own (on
QUIRE_OPERATOR_HOST, default 127.0.0.1). docs/operations.md lists every setting.
`,
};

export const MCP_USAGE: Usage = {
  command: 'mcp',
  help: `usage: quire mcp [--db PATH|URL]

Runs the MCP server on standard input and output, rendering for the account whose API key
QUIRE_API_KEY holds, on the same database, plan and usage as the HTTP service. Logs go to
standard error.

options:
${DB_OPTION}
${COMMON}
`,
};

export const ACCOUNT_USAGE: Usage = {
  command: 'account',
  help: `usage: quire account create --email E [--plan P] [--unverified] [--db PATH|URL]
       quire account set ACCOUNT [--plan P] [--blocked true|false] [--email-verified true|false]
                         [--limit NAME=VALUE …] [--db PATH|URL]

create: makes an account and its first API key, and prints both as JSON (the key is shown once).
  --email E               the account's email address
  --plan P                free (the default), starter, pro or scale
  --unverified            the email address is not verified yet
set: changes an account and prints it as JSON (a plan change starts a new period).
  --plan P                free, starter, pro or scale
  --blocked true|false    refuse (or again accept) the account's requests
  --email-verified true|false
  --limit NAME=VALUE      over the plan's limit NAME (documents, markdown_kb, resources_mb,
                          pages_max, timeout_s, concurrency, requests_per_min, previews_per_hour);
                          repeatable
${DB_OPTION}
${COMMON}
`,
};

export const KEY_USAGE: Usage = {
  command: 'key',
  help: `usage: quire key create ACCOUNT [--name N] [--db PATH|URL]
       quire key revoke KEY_ID [--db PATH|URL]

create: issues an API key for ACCOUNT and prints it as JSON (shown once).
  --name N                a name to tell the key by
revoke: revokes the key KEY_ID at once.
${DB_OPTION}
${COMMON}
`,
};

export const GRANT_USAGE: Usage = {
  command: 'grant',
  help: `usage: quire grant ACCOUNT --documents N [--db PATH|URL]

Adds N documents to the account's current period and prints the period as JSON.

options:
  --documents N           how many documents, a positive whole number
${DB_OPTION}
${COMMON}
`,
};

export const CERT_USAGE: Usage = {
  command: 'cert',
  help: `usage: quire cert add ACCOUNT --name N (--p12 FILE --password P | --key FILE --cert FILE [--chain FILE] [--password P]) [--db PATH|URL]
       quire cert delete ACCOUNT --name N [--db PATH|URL]
       quire cert list ACCOUNT [--db PATH|URL]

add: checks a signing credential as a sealing request would, and stores it in the account,
encrypted (the master key: QUIRE_MASTER_KEY, or the key file beside the database). The output
never shows the credential.
  --name N                the name requests give as sign.certificate
  --p12 FILE              a PKCS#12 file, with its --password
  --key FILE, --cert FILE the private key and its certificate (PEM or DER); --chain FILE the
                          intermediate certificates; --password for an encrypted key
delete: removes the stored certificate named --name N.
list: prints the account's stored certificates as JSON.
${DB_OPTION}
${COMMON}
`,
};
