/** PDF text strings and dates as the signature dictionary holds them. */

/** A literal string when printable ASCII, else UTF-16BE with a byte-order mark (PDF 32000-1, 7.9.2.2). */
export function pdfTextString(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return `(${value.replace(/[\\()]/g, (char) => `\\${char}`)})`;
  return `<FEFF${Buffer.from(value, 'utf16le').swap16().toString('hex').toUpperCase()}>`;
}

/** `D:YYYYMMDDHHmmSSZ`, in UTC. */
export function pdfDate(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return `(D:${iso.slice(0, 19).replace(/[-T:]/g, '')}Z)`;
}
