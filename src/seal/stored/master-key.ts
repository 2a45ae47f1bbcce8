/**
 * The master key that encrypts stored credentials: QUIRE_MASTER_KEY (32 bytes as hex or Base64),
 * else a key file (QUIRE_MASTER_KEY_FILE, default `master.key` beside a SQLite database) created
 * on first use with owner-only permissions. A key file others can read is refused. With
 * PostgreSQL there is no default: every instance must read the same key.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StoreLocation } from '../../store/open-store.js';

const KEY_BYTES = 32;

export function masterKey(env: NodeJS.ProcessEnv, location: StoreLocation): Buffer {
  const given = env.QUIRE_MASTER_KEY;
  if (given) return decode(given.trim(), 'QUIRE_MASTER_KEY');
  if (env.QUIRE_MASTER_KEY_FILE) return readOrCreate(env.QUIRE_MASTER_KEY_FILE);
  if (location.kind === 'postgres') {
    throw new Error(
      'with a PostgreSQL database, set QUIRE_MASTER_KEY or QUIRE_MASTER_KEY_FILE: every instance must share the key that encrypts stored certificates',
    );
  }
  return readOrCreate(path.join(path.dirname(path.resolve(location.file)), 'master.key'));
}

function readOrCreate(file: string): Buffer {
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: only the first process to get here creates it; the others read what it wrote.
    writeFileSync(file, `${randomBytes(KEY_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if ((statSync(file).mode & 0o077) !== 0) throw new Error(`the master key file ${file} must be readable by its owner only (chmod 600)`);
  return decode(readFileSync(file, 'utf8').trim(), file);
}

function decode(text: string, source: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${source} must hold a 32-byte key, in hex or Base64`);
  return key;
}
