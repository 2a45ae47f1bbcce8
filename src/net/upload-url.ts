/**
 * The shape check of `upload_url` (docs/api.md "Upload delivery") that needs no network: an absolute
 * https URL that is sent exactly as written. Whether the host is public is the uploader's
 * check, made when it resolves the name. Messages never repeat the URL.
 */
import { invalidRequest } from '../service-error.js';

export function checkUploadUrl(value: unknown): string {
  if (typeof value !== 'string') throw invalid('"upload_url" must be a string.');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('"upload_url" must be an absolute URL.');
  }
  if (url.protocol !== 'https:') throw invalid('"upload_url" must be an https URL.');
  if (url.href !== value) throw invalid('"upload_url" could not be sent exactly as written.');
  if (url.username !== '' || url.password !== '') throw invalid('"upload_url" must not carry credentials.');
  return value;
}

function invalid(message: string) {
  return invalidRequest('invalid_upload_url', message);
}
