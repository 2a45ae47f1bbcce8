/** Worker thread that reads large JSON request bodies (bounded-json.ts), off the service's event loop. */
import { serveTasks } from '../workers/task-thread.js';
import { readBoundedJson, type JsonOutcome } from './bounded-json.js';

serveTasks<Uint8Array, JsonOutcome>(readBoundedJson);
