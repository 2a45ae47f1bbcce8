/**
 * The Uploader of a deployment with an outbound address: https only, the address policy, one PUT
 * carrying only `Content-Type: application/pdf` and `Content-Length` (Node adds the `Host` HTTP/1.1
 * requires and `Connection: close`), tried once, never redirected. Nothing here repeats or logs
 * the URL.
 */
import type { Log } from '../log.js';
import { invalidRequest, quotaUnavailable, uploadFailed } from '../service-error.js';
import { resolveDestination } from '@quire/engine/net';
import { DestinationRefused, DestinationUnchecked, type RefusalReason } from '@quire/engine/net';
import type { NetSettings } from './net-settings.js';
import { exchange, ExchangeError } from '@quire/engine/net';
import type { UploadDestination, Uploader } from './uploader.js';

/** docs/api.md "Limits": connect within 10 s; the whole PUT within the deployment's upload time (60 s). */
export const UPLOAD_CONNECT_TIMEOUT_MS = 10_000;

const REFUSALS: Record<RefusalReason, string> = {
  scheme: '"upload_url" must be an https URL.',
  credentials: '"upload_url" must not carry credentials.',
  ipv6: '"upload_url" must name a host with a public IPv4 address.',
  address: '"upload_url" must be on a public host.',
  blocked_domain: '"upload_url" is on a domain this service does not deliver to.',
  no_ipv4: '"upload_url" names a host without an IPv4 address.',
};

export function networkUploader(settings: NetSettings, log: Log, timeoutMs: number): Uploader {
  return {
    async checkDestination(url: string): Promise<UploadDestination> {
      try {
        return await resolveDestination(new URL(url), ['https:'], settings);
      } catch (error) {
        if (error instanceof DestinationRefused) throw invalidRequest('invalid_upload_url', REFUSALS[error.reason]);
        if (error instanceof DestinationUnchecked) {
          log({ event: 'upload_check_failed', reason: error.reason });
          throw quotaUnavailable('The upload address could not be checked; nothing was counted.');
        }
        throw error;
      }
    },

    async put(destination: UploadDestination, pdf: Uint8Array): Promise<{ status: number }> {
      let status: number;
      try {
        ({ status } = await exchange(destination, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/pdf', 'Content-Length': String(pdf.byteLength) },
          body: pdf,
          connectTimeoutMs: UPLOAD_CONNECT_TIMEOUT_MS,
          timeoutMs,
        }));
      } catch (error) {
        if (!(error instanceof ExchangeError)) throw error;
        log({ event: 'upload_failed', status: null, failure: error.failure });
        throw uploadFailed(null);
      }
      if (status < 200 || status > 299) {
        log({ event: 'upload_failed', status });
        throw uploadFailed(status);
      }
      return { status };
    },
  };
}
