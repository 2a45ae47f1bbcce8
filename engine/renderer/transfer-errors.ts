/**
 * Errors across a thread: the worker sends an error's class name, message, stack and own fields;
 * the host rebuilds it as the same class, so `instanceof RenderTimeoutError`, `error.key`,
 * `error.bound` and the rest work as they do on the caller's thread. An error of a class the host
 * does not know comes back as an Error with the same name and message.
 */
import {
  EmptyDocumentError,
  FrontMatterError,
  InvalidOptionError,
  PageLimitError,
  RenderTimeoutError,
  RendererBoundError,
  ResourceBudgetError,
  ResourceError,
} from '../errors.js';
import { ResourceLoadError } from '../resources/loader.js';
import type { ErrorData } from './protocol.js';

type ErrorClass = abstract new (...args: never[]) => Error;

const CLASSES: ReadonlyMap<string, ErrorClass> = new Map<string, ErrorClass>([
  ['EmptyDocumentError', EmptyDocumentError],
  ['FrontMatterError', FrontMatterError],
  ['InvalidOptionError', InvalidOptionError],
  ['PageLimitError', PageLimitError],
  ['RenderTimeoutError', RenderTimeoutError],
  ['RendererBoundError', RendererBoundError],
  ['ResourceBudgetError', ResourceBudgetError],
  ['ResourceError', ResourceError],
  ['ResourceLoadError', ResourceLoadError],
  ['Error', Error],
  ['RangeError', RangeError],
  ['TypeError', TypeError],
  ['SyntaxError', SyntaxError],
  ['ReferenceError', ReferenceError],
  ['EvalError', EvalError],
  ['URIError', URIError],
]);

/** `error` as plain data; `loaderError`: the host's number for it when it is the host loader's own error. */
export function errorData(error: unknown, loaderError?: number): ErrorData {
  if (!(error instanceof Error))
    return { name: 'Error', message: String(error), stack: undefined, fields: {}, ...(loaderError !== undefined && { loaderError }) };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === 'message' || key === 'stack' || key === 'name') continue;
    try {
      fields[key] = structuredClone(value);
    } catch {
      // A field that does not clone (a function, a socket) stays behind.
    }
  }
  return { name: error.name, message: error.message, stack: error.stack, fields, ...(loaderError !== undefined && { loaderError }) };
}

/** The error `data` describes, as its own class when the engine knows it. */
export function rebuildError(data: ErrorData): Error {
  const errorClass = CLASSES.get(data.name);
  const error = new Error(data.message);
  if (errorClass) Object.setPrototypeOf(error, errorClass.prototype);
  else Object.defineProperty(error, 'name', { value: data.name, writable: true, configurable: true, enumerable: false });
  Object.assign(error, data.fields);
  if (data.stack !== undefined) error.stack = data.stack;
  return error;
}
