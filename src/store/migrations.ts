/**
 * The schema, as numbered migrations shared by both stores: migration N is the same change in
 * SQLite's dialect and in PostgreSQL's. A database records the last one applied (SQLite in
 * `PRAGMA user_version`, PostgreSQL in `schema_version`, under an advisory lock so instances
 * starting together apply each once). A schema change is a new entry at the end, never an edit
 * of an applied one.
 */
export interface Migration {
  sqlite: string;
  postgres: string;
}

export const MIGRATIONS: readonly Migration[] = [
  // 1: the first schema.
  {
    sqlite: `
    CREATE TABLE settings (
      name  TEXT PRIMARY KEY,
      value BLOB NOT NULL
    );
    INSERT INTO settings (name, value) VALUES ('fingerprint', randomblob(32));

    CREATE TABLE accounts (
      id              TEXT PRIMARY KEY,
      email           TEXT NOT NULL UNIQUE COLLATE NOCASE,
      plan            TEXT NOT NULL,
      blocked         INTEGER NOT NULL DEFAULT 0,
      email_verified  INTEGER NOT NULL,
      limit_overrides TEXT NOT NULL DEFAULT '{}',
      anchor_day      INTEGER NOT NULL,
      anchor_from     INTEGER NOT NULL,
      created_at      INTEGER NOT NULL
    );

    CREATE TABLE api_keys (
      id         TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      name       TEXT,
      key_hash   TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      revoked_at INTEGER
    );

    CREATE TABLE periods (
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      plan       TEXT NOT NULL,
      starts_at  INTEGER NOT NULL,
      ends_at    INTEGER NOT NULL,
      included   INTEGER NOT NULL,
      granted    INTEGER NOT NULL DEFAULT 0,
      used       INTEGER NOT NULL DEFAULT 0,
      reserved   INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX periods_by_account ON periods (account_id, starts_at);

    CREATE TABLE grants (
      id         INTEGER PRIMARY KEY,
      period_id  INTEGER NOT NULL REFERENCES periods (id),
      documents  INTEGER NOT NULL,
      reason     TEXT NOT NULL CHECK (reason IN ('admin', 'carry_over')),
      created_at INTEGER NOT NULL
    );

    CREATE TABLE reservations (
      id         INTEGER PRIMARY KEY,
      period_id  INTEGER NOT NULL REFERENCES periods (id),
      key_id     TEXT NOT NULL REFERENCES api_keys (id),
      state      TEXT NOT NULL CHECK (state IN ('reserved', 'charged', 'returned')),
      error_code TEXT,
      pages      INTEGER,
      created_at INTEGER NOT NULL,
      settled_at INTEGER
    );
    CREATE INDEX reservations_by_period ON reservations (period_id, key_id, state);
    CREATE INDEX open_reservations ON reservations (state) WHERE state = 'reserved';

    CREATE TABLE idempotency_keys (
      account_id  TEXT NOT NULL REFERENCES accounts (id),
      idem_key    TEXT NOT NULL,
      token       TEXT NOT NULL,
      state       TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
      fingerprint TEXT NOT NULL,
      replays     INTEGER NOT NULL DEFAULT 0,
      created_at  INTEGER NOT NULL,
      PRIMARY KEY (account_id, idem_key)
    ) WITHOUT ROWID;
    CREATE INDEX idempotency_by_age ON idempotency_keys (created_at);
    `,
    postgres: `
    CREATE TABLE settings (
      name  TEXT PRIMARY KEY,
      value BYTEA NOT NULL
    );
    -- 244 bits from the server's strong random source (gen_random_uuid), with no extension needed.
    INSERT INTO settings (name, value) VALUES ('fingerprint', decode(
      replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'));

    CREATE TABLE accounts (
      id              TEXT PRIMARY KEY,
      email           TEXT NOT NULL,
      plan            TEXT NOT NULL,
      blocked         BOOLEAN NOT NULL DEFAULT FALSE,
      email_verified  BOOLEAN NOT NULL,
      limit_overrides JSONB NOT NULL DEFAULT '{}',
      anchor_day      INTEGER NOT NULL,
      anchor_from     BIGINT NOT NULL,
      created_at      BIGINT NOT NULL
    );
    CREATE UNIQUE INDEX accounts_by_email ON accounts (lower(email));

    CREATE TABLE api_keys (
      id         TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      name       TEXT,
      key_hash   TEXT NOT NULL UNIQUE,
      created_at BIGINT NOT NULL,
      revoked_at BIGINT
    );

    CREATE TABLE periods (
      id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      plan       TEXT NOT NULL,
      starts_at  BIGINT NOT NULL,
      ends_at    BIGINT NOT NULL,
      included   INTEGER NOT NULL,
      granted    INTEGER NOT NULL DEFAULT 0,
      used       INTEGER NOT NULL DEFAULT 0,
      reserved   INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX periods_by_account ON periods (account_id, starts_at);

    CREATE TABLE grants (
      id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      period_id  BIGINT NOT NULL REFERENCES periods (id),
      documents  INTEGER NOT NULL,
      reason     TEXT NOT NULL CHECK (reason IN ('admin', 'carry_over')),
      created_at BIGINT NOT NULL
    );

    CREATE TABLE reservations (
      id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      period_id  BIGINT NOT NULL REFERENCES periods (id),
      key_id     TEXT NOT NULL REFERENCES api_keys (id),
      state      TEXT NOT NULL CHECK (state IN ('reserved', 'charged', 'returned')),
      error_code TEXT,
      pages      INTEGER,
      created_at BIGINT NOT NULL,
      settled_at BIGINT
    );
    CREATE INDEX reservations_by_period ON reservations (period_id, key_id, state);
    CREATE INDEX open_reservations ON reservations (state) WHERE state = 'reserved';

    CREATE TABLE idempotency_keys (
      account_id  TEXT NOT NULL REFERENCES accounts (id),
      idem_key    TEXT NOT NULL,
      token       TEXT NOT NULL,
      state       TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
      fingerprint TEXT NOT NULL,
      replays     INTEGER NOT NULL DEFAULT 0,
      created_at  BIGINT NOT NULL,
      PRIMARY KEY (account_id, idem_key)
    );
    CREATE INDEX idempotency_by_age ON idempotency_keys (created_at);
    `,
  },
  // 2: certificates stored for seals; `sealed` is encrypted by src/seal before it gets here.
  {
    sqlite: `
    CREATE TABLE certificates (
      account_id TEXT NOT NULL REFERENCES accounts (id),
      name       TEXT NOT NULL,
      sealed     BLOB NOT NULL,
      key_type   TEXT NOT NULL,
      not_after  INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (account_id, name)
    ) WITHOUT ROWID;
    `,
    postgres: `
    CREATE TABLE certificates (
      account_id TEXT NOT NULL REFERENCES accounts (id),
      name       TEXT NOT NULL,
      sealed     BYTEA NOT NULL,
      key_type   TEXT NOT NULL,
      not_after  BIGINT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, name)
    );
    `,
  },
  // 3: what a completed key's render loaded, so a replay seeing other resource content is refused.
  {
    sqlite: `
    ALTER TABLE idempotency_keys ADD COLUMN resources TEXT;
    `,
    postgres: `
    ALTER TABLE idempotency_keys ADD COLUMN resources TEXT;
    `,
  },
  // 4: leases on work in flight (null: held by an instance from before leases, so expired), and
  // the per-account token counters that several instances share. PostgreSQL keeps the tokens
  // unlogged: no WAL and no wait for the disk; a crash of the server empties them, which only
  // frees slots and restarts minute windows.
  {
    sqlite: `
    ALTER TABLE reservations ADD COLUMN holder TEXT;
    ALTER TABLE reservations ADD COLUMN lease_until INTEGER;
    ALTER TABLE idempotency_keys ADD COLUMN holder TEXT;
    ALTER TABLE idempotency_keys ADD COLUMN lease_until INTEGER;
    CREATE INDEX keys_in_progress ON idempotency_keys (state) WHERE state = 'in_progress';
    CREATE TABLE account_tokens (
      account_id TEXT NOT NULL,
      kind       TEXT NOT NULL CHECK (kind IN ('request', 'render', 'preview')),
      slot       INTEGER NOT NULL,
      holder     TEXT NOT NULL,
      held_until INTEGER NOT NULL,
      PRIMARY KEY (account_id, kind, slot)
    ) WITHOUT ROWID;
    CREATE INDEX tokens_by_holder ON account_tokens (holder, kind);
    `,
    postgres: `
    ALTER TABLE reservations ADD COLUMN holder TEXT;
    ALTER TABLE reservations ADD COLUMN lease_until BIGINT;
    ALTER TABLE idempotency_keys ADD COLUMN holder TEXT;
    ALTER TABLE idempotency_keys ADD COLUMN lease_until BIGINT;
    CREATE INDEX keys_in_progress ON idempotency_keys (state) WHERE state = 'in_progress';
    CREATE UNLOGGED TABLE account_tokens (
      account_id TEXT NOT NULL,
      kind       TEXT NOT NULL CHECK (kind IN ('request', 'render', 'preview')),
      slot       INTEGER NOT NULL,
      holder     TEXT NOT NULL,
      held_until BIGINT NOT NULL,
      PRIMARY KEY (account_id, kind, slot)
    );
    CREATE INDEX tokens_by_holder ON account_tokens (holder, kind);
    `,
  },
  // 5: which front-end reserved a document. Editor downloads count in the period's documents but
  // in no key's spending (docs/api.md "GET /v1/usage": "the editor's share is credits_used minus the sum").
  {
    sqlite: `
    ALTER TABLE reservations ADD COLUMN front_end TEXT NOT NULL DEFAULT 'api' CHECK (front_end IN ('api', 'editor'));
    `,
    postgres: `
    ALTER TABLE reservations ADD COLUMN front_end TEXT NOT NULL DEFAULT 'api' CHECK (front_end IN ('api', 'editor'));
    `,
  },
];
