/**
 * Numbered schema migrations. The database records the last one applied in `PRAGMA user_version`;
 * a new schema change is a new entry at the end, never an edit of an applied one.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the first schema.
  `
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
  // 2: certificates stored for seals; `sealed` is encrypted by src/seal before it gets here.
  `
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
  // 3: what a completed key's render loaded, so a replay seeing other resource content is refused.
  `
  ALTER TABLE idempotency_keys ADD COLUMN resources TEXT;
  `,
];
