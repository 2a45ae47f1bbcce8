/**
 * The one reader of JSON request bodies, for POST /v1/render and /mcp alike, within the bounds
 * of bounded-json.ts. A body up to 256 KiB is read on the event loop (about a millisecond
 * measured, whatever its content; a mebibyte takes up to 5); a larger one in a worker thread, so
 * that one client's large body never holds the answers to the others — what the event loop still
 * pays is taking the parsed strings back (at most 5 ms measured at the Free ceiling, 35 ms at the
 * largest plan's). Refusals are 400 `invalid_request` naming the reason.
 */
import type { Transferable } from 'node:worker_threads';
import { KIB } from '../limits/plans.js';
import { invalidRequest, type ServiceError } from '../service-error.js';
import { TaskThread } from '../workers/task-thread.js';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES, readBoundedJson, type JsonOutcome, type JsonRefusal } from './bounded-json.js';

const INLINE_BYTES = 256 * KIB;
/** Room for a body at the derived ceiling (about 50 MB) as UTF-16 text with its parsed strings, several times over. */
const WORKER_HEAP_MB = 512;

const REFUSALS: Readonly<Record<JsonRefusal, () => ServiceError>> = {
  invalid_encoding: () => invalidRequest('invalid_encoding', 'The body is not valid UTF-8.'),
  invalid_json: () => invalidRequest('invalid_json', 'The body is not valid JSON.'),
  json_depth_limit: () => invalidRequest('json_depth_limit', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`),
  json_value_limit: () => invalidRequest('json_value_limit', `The JSON body holds more than ${MAX_JSON_VALUES} values.`),
};

let thread: TaskThread<Uint8Array, JsonOutcome> | undefined;

/** The body's JSON value; a large body's bytes are handed to the worker, so the caller must not use them after. */
export async function parseJsonBody(bytes: Uint8Array): Promise<unknown> {
  const outcome =
    bytes.byteLength <= INLINE_BYTES
      ? readBoundedJson(bytes)
      : await (thread ??= new TaskThread(new URL('./json-worker.js', import.meta.url), WORKER_HEAP_MB, 'JSON reader')).run(bytes, movable(bytes));
  if (!outcome.ok) throw REFUSALS[outcome.refusal]();
  return outcome.value;
}

/** The bytes' buffer when they are all of it (a body read whole), moved rather than copied. */
function movable(bytes: Uint8Array): Transferable[] {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength ? [buffer] : [];
}
