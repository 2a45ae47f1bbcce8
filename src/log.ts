/**
 * Operational log lines. Callers pass only what is safe to keep: never API keys, seal
 * credentials, upload URLs or document text (redaction is not relied on: FINDINGS, pino).
 */
import { pino, type DestinationStream } from 'pino';

export type Log = (event: Record<string, unknown>) => void;

/** Events that mean something went wrong on the service's side. */
const ERRORS = new Set(['unexpected_error', 'engine_error', 'worker_error', 'worker_exit', 'settle_failed', 'maintenance_failed']);

/** JSON lines through pino: `level`, `time` (ISO 8601), then the event's own fields. */
export function jsonLog(destination: DestinationStream): Log {
  const logger = pino(
    {
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return (event) => {
    if (ERRORS.has(String(event.event))) logger.error(event);
    else if (event.event === 'warning') logger.warn(event);
    else logger.info(event);
  };
}

let stderr: Log | undefined;

/** One JSON object per line on stderr, written synchronously so no line is lost at exit. */
export const stderrLog: Log = (event) => (stderr ??= jsonLog(pino.destination({ fd: 2, sync: true })))(event);

export const silentLog: Log = () => undefined;
