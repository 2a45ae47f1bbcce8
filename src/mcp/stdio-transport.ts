/**
 * MCP over stdio with a bounded reader: newline-delimited JSON-RPC, each line held to the
 * deployment's body ceiling — the one the HTTP door refuses bodies over — so that the same
 * documents fit both doors. The SDK's StdioServerTransport concatenates its whole buffer again
 * with every chunk until a newline comes, and past its own 10 MiB closes the transport, ending
 * the session. Here a line over the ceiling is dropped as it streams, never held, and answered
 * with a JSON-RPC error (id null: the request's id is in what was dropped); the next line is
 * read as usual.
 *
 * Standard input, when it is a pipe or a socket (as a client spawns the server), is read into
 * one buffer used again for every read: a line being dropped then costs no memory at all, where
 * a stream's fresh buffer per read would leave tens of mebibytes of garbage until the next
 * collection. A file or a terminal is read as a stream.
 *
 * Lines are read as the HTTP door reads bodies (bounded-json.ts: nesting and value counts
 * bounded before JSON.parse), and checked against the SDK's own JSONRPCMessageSchema. A line
 * that is not JSON is answered -32700, one that is not a JSON-RPC message -32600; the SDK's
 * transport answers neither.
 */
import { fstatSync } from 'node:fs';
import { Socket, type OnReadOpts, type SocketConstructorOpts } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorBody } from '../http/error-response.js';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES, readBoundedJson, type JsonRefusal } from '../admission/bounded-json.js';
import { KIB } from '../limits/plans.js';
import { bodyLimit } from '../limits/body-ceiling.js';
import { bodyTooLarge } from '../service-error.js';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** Node's own read size for streams. */
const READ_BYTES = 64 * KIB;

/** A JSON-RPC error about a line whose request id is unknown (JSON-RPC 2.0 §5: id null). */
interface LineError {
  jsonrpc: '2.0';
  id: null;
  error: { code: number; message: string; data?: unknown };
}

const REFUSALS: Readonly<Record<JsonRefusal, { code: number; message: string }>> = {
  invalid_encoding: { code: ErrorCode.ParseError, message: 'Parse error: the line is not valid UTF-8.' },
  invalid_json: { code: ErrorCode.ParseError, message: 'Parse error: the line is not valid JSON.' },
  json_depth_limit: { code: ErrorCode.InvalidRequest, message: `Invalid Request: the message nests deeper than ${MAX_JSON_DEPTH} levels.` },
  json_value_limit: { code: ErrorCode.InvalidRequest, message: `Invalid Request: the message holds more than ${MAX_JSON_VALUES} values.` },
};

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly lines: LineReader;
  private input: Readable | undefined;
  /** The input is the socket opened here on fd 0, to be destroyed at the end (a stream given or process.stdin is only paused). */
  private ownInput = false;
  private closed = false;

  /**
   * `maxLineBytes`: the longest line read, its newline (and a carriage return before it) not
   * counted. `source`: a stream to read instead of standard input.
   */
  constructor(
    private readonly maxLineBytes: number,
    private readonly source?: Readable,
    private readonly output: Writable = process.stdout,
  ) {
    this.lines = new LineReader(maxLineBytes, {
      line: (bytes) => this.deliver(bytes),
      overlong: () => this.answerOverlong(),
    });
  }

  async start(): Promise<void> {
    if (this.input) throw new Error('BoundedStdioTransport already started');
    const chunk = (bytes: Uint8Array) => this.lines.push(bytes);
    if (this.source) this.input = readStream(this.source, chunk);
    else ({ input: this.input, own: this.ownInput } = readStdin(chunk));
    // The client has closed its end: the session is over.
    this.input.once('end', () => void this.close());
    this.input.on('error', this.reportError);
    this.output.on('error', this.reportError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownInput) this.input?.destroy();
    else this.input?.pause();
    this.lines.clear();
    this.onclose?.();
  }

  // A read failing, or the client gone while answered (EPIPE): reported, never thrown out of the process.
  private readonly reportError = (error: Error) => this.onerror?.(error);

  private deliver(bytes: Uint8Array): void {
    const outcome = readBoundedJson(bytes);
    if (!outcome.ok) return void this.answerLine(REFUSALS[outcome.refusal]);
    const message = JSONRPCMessageSchema.safeParse(outcome.value);
    if (!message.success) return void this.answerLine({ code: ErrorCode.InvalidRequest, message: 'Invalid Request: the line is not a JSON-RPC 2.0 message.' });
    this.onmessage?.(message.data);
  }

  private answerOverlong(): void {
    const ceiling = { bytes: this.maxLineBytes, plan: null };
    this.answerLine({
      code: ErrorCode.InvalidRequest,
      message: `Invalid Request: a message on stdin may be at most ${Math.floor(this.maxLineBytes / KIB)} KB (the deployment's body ceiling, as over HTTP); this line was longer and is discarded.`,
      // The HTTP door's error body for the same refusal: payload_too_large, body_limit, body_kb.
      data: errorBody(bodyTooLarge(bodyLimit(ceiling))),
    });
  }

  private answerLine(error: LineError['error']): Promise<void> {
    const answer: LineError = { jsonrpc: '2.0', id: null, error };
    return this.write(`${JSON.stringify(answer)}\n`);
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(text)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}

/**
 * Standard input read into one reused buffer when it is a pipe or a socket, by a socket opened
 * here (`own`); otherwise as process.stdin's stream.
 */
function readStdin(chunk: (bytes: Uint8Array) => void): { input: Readable; own: boolean } {
  let piped = false;
  try {
    const stat = fstatSync(0);
    piped = stat.isFIFO() || stat.isSocket();
  } catch {
    // No standard input to inspect: the stream reports what is wrong with it.
  }
  if (!piped) return { input: readStream(process.stdin, chunk), own: false };
  // Node's Socket takes `onread` in its constructor as in connect(); @types/node lists it only for the latter.
  const onread: OnReadOpts = {
    buffer: Buffer.allocUnsafe(READ_BYTES),
    callback: (bytes, buffer) => {
      chunk(buffer.subarray(0, bytes));
      return true;
    },
  };
  return { input: new Socket({ fd: 0, readable: true, writable: false, onread } as SocketConstructorOpts), own: true };
}

function readStream(stream: Readable, chunk: (bytes: Uint8Array) => void): Readable {
  return stream.on('data', (data: Buffer | string) => chunk(typeof data === 'string' ? Buffer.from(data) : data));
}

interface LineEvents {
  line(bytes: Uint8Array): void;
  /** A line has passed the bound: what came of it is dropped, and so will the rest of it be. */
  overlong(): void;
}

/**
 * Splits a byte stream at newlines, holding at most `maxBytes` (and a carriage return) of the
 * line under way: the pieces of a line are copied (the chunks' buffer may be read into again)
 * and joined once, at its newline.
 */
export class LineReader {
  private pieces: Uint8Array[] = [];
  private size = 0;
  private dropping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly events: LineEvents,
  ) {}

  push(chunk: Uint8Array): void {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, from);
      const end = newline < 0 ? chunk.length : newline;
      this.take(chunk.subarray(from, end));
      if (newline < 0) return;
      this.endLine();
      from = newline + 1;
    }
  }

  clear(): void {
    this.pieces = [];
    this.size = 0;
    this.dropping = false;
  }

  private take(piece: Uint8Array): void {
    if (this.dropping || piece.length === 0) return;
    // One byte of room for a carriage return before the newline, not counted in the line.
    if (this.size + piece.length > this.maxBytes + 1) {
      this.clear();
      this.dropping = true;
      this.events.overlong();
      return;
    }
    this.pieces.push(Buffer.from(piece));
    this.size += piece.length;
  }

  private endLine(): void {
    if (this.dropping) {
      this.clear();
      return;
    }
    let line = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.size);
    this.clear();
    if (line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, -1);
    if (line.length > this.maxBytes) {
      this.events.overlong();
      return;
    }
    // Blank lines between messages are no message at all.
    if (line.length === 0) return;
    this.events.line(line);
  }
}
