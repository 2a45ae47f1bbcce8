/** Stored certificates, always looked up by account and name together (call inside a transaction where noted). */
import { CERTIFICATE_SUMMARY_COLUMNS, toCertificateSummary, toStoredCertificate, type CertificateRow } from '../rows.js';
import { UnknownRecordError, type CertificateSummary, type StoredCertificate } from '../store.js';
import type { Db } from './database.js';

export function certificateExists(db: Db, accountId: string, name: string): boolean {
  return db.prepare('SELECT 1 FROM certificates WHERE account_id = ? AND name = ?').get(accountId, name) !== undefined;
}

export function insertCertificate(db: Db, accountId: string, certificate: StoredCertificate): CertificateSummary {
  const row = db
    .prepare(
      `INSERT INTO certificates (account_id, name, sealed, key_type, not_after, created_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING ${CERTIFICATE_SUMMARY_COLUMNS}`,
    )
    .get(accountId, certificate.name, certificate.sealed, certificate.keyType, certificate.notAfter, certificate.createdAt) as Omit<CertificateRow, 'sealed'>;
  return toCertificateSummary(row);
}

export function selectCertificate(db: Db, accountId: string, name: string): StoredCertificate | undefined {
  const row = db.prepare('SELECT * FROM certificates WHERE account_id = ? AND name = ?').get(accountId, name) as CertificateRow | undefined;
  return row && toStoredCertificate(row);
}

export function removeCertificate(db: Db, accountId: string, name: string): void {
  const { changes } = db.prepare('DELETE FROM certificates WHERE account_id = ? AND name = ?').run(accountId, name);
  if (changes === 0) throw new UnknownRecordError('certificate', name);
}

export function selectCertificates(db: Db, accountId: string): CertificateSummary[] {
  const rows = db.prepare(`SELECT ${CERTIFICATE_SUMMARY_COLUMNS} FROM certificates WHERE account_id = ? ORDER BY name`).all(accountId);
  return (rows as Omit<CertificateRow, 'sealed'>[]).map(toCertificateSummary);
}
