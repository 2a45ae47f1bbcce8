/**
 * Where a finished PDF goes besides the caller's hands: a file or a stream. The engine makes the
 * whole PDF before it writes a byte (its cross-reference table follows its objects), so these
 * write once, after the render: a failed render writes nothing.
 */
import { writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';

/** Writes `pdf` to the file at `path`, replacing what was there. */
export async function writePdfFile(pdf: Uint8Array, path: string | URL): Promise<void> {
  await writeFile(path, pdf);
}

/** Writes `pdf` to `stream` and ends it; resolves once the stream has flushed it, rejects if the stream fails. */
export async function writePdfStream(pdf: Uint8Array, stream: NodeJS.WritableStream): Promise<void> {
  const done = finished(stream, { readable: false });
  stream.end(pdf);
  await done;
}
