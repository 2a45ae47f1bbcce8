/**
 * Budgets measured on the document as sent, before anything is reserved (docs/api.md
 * "Limits"): the payloads of `data:` images — Markdown images and HTML `src`/`srcset`, the
 * references the renderer loads — are split out of the Markdown and counted as resources. Text
 * that merely looks like a `data:` URI (in code, in prose, as a link's target) is Markdown.
 */
import type { Features } from '@quire/engine';
import { base64DecodedLength } from '@quire/engine';
import { payloadTooLarge, tooManyResources } from '../service-error.js';
import { TaskThread } from '../workers/task-thread.js';
import { eachImageReference, RemoteImages } from './image-references.js';
import { KIB, MAX_EMBEDDED_RESOURCES, MAX_REMOTE_RESOURCES, MIB } from './plans.js';
import type { PlanId, PlanLimits } from '../plan-terms.js';

export interface DocumentMeasure {
  /** UTF-8 bytes of the Markdown without embedded payloads. */
  markdownBytes: number;
  /** Decoded bytes of every embedded resource together. */
  embeddedBytes: number;
  embeddedCount: number;
  /** Distinct remote images the document links (none when images are off), counted to one past the most allowed. */
  remoteCount: number;
}

/** `data:` + media type and parameters + `,` + payload. */
const DATA_URI = /^data:([^,]*),/i;

export type MeasuredFeatures = Pick<Features, 'images' | 'html_blocks'>;

/**
 * Up to this many characters the scan runs on the event loop (under 10 ms whatever the text);
 * a longer document is measured in a worker thread, so that no client's document, however its
 * brackets nest, holds the answers to the others while it is read.
 */
const INLINE_CHARACTERS = 256 * 1024;
/** Room for the largest plan's Markdown as text, its references and their copies, several times over. */
const WORKER_HEAP_MB = 256;
let thread: TaskThread<{ markdown: string; features: MeasuredFeatures }, DocumentMeasure> | undefined;

/** measureDocument, off the event loop for a long document. */
export async function measureRequest(markdown: string, features: MeasuredFeatures): Promise<DocumentMeasure> {
  if (markdown.length <= INLINE_CHARACTERS) return measureDocument(markdown, features);
  thread ??= new TaskThread(new URL('./measure-worker.js', import.meta.url), WORKER_HEAP_MB, 'document measurer');
  return thread.run({ markdown, features: { images: features.images, html_blocks: features.html_blocks } });
}

/** Linear in the text (each character is looked at a bounded number of times, nested brackets included). */
export function measureDocument(markdown: string, features: MeasuredFeatures): DocumentMeasure {
  let payloadBytes = 0;
  let embeddedBytes = 0;
  let embeddedCount = 0;
  // Each reference is counted as it is found and none is kept, but the distinct remote ones up to
  // one past the most a document may link: a document of millions of images is measured in bounded memory.
  const remote = new RemoteImages(MAX_REMOTE_RESOURCES);
  for (const url of eachImageReference(markdown, { html: features.html_blocks })) {
    const data = DATA_URI.exec(url);
    if (!data) {
      if (features.images) remote.add(url);
      continue;
    }
    const payload = url.slice(data[0].length);
    payloadBytes += Buffer.byteLength(payload, 'utf8');
    embeddedBytes += /;base64$/i.test(data[1]!) ? base64DecodedLength(payload) : percentDecodedLength(payload);
    embeddedCount += 1;
  }
  return { markdownBytes: Buffer.byteLength(markdown, 'utf8') - payloadBytes, embeddedBytes, embeddedCount, remoteCount: remote.urls.size };
}

function percentDecodedLength(payload: string): number {
  try {
    return Buffer.byteLength(decodeURIComponent(payload), 'utf8');
  } catch {
    return Buffer.byteLength(payload, 'utf8');
  }
}

/** Refuses a document over its plan's Markdown or resource budget, or with too many embedded or remote resources. */
export function checkBudgets(measure: DocumentMeasure, limits: PlanLimits, plan: PlanId): void {
  if (measure.markdownBytes > limits.markdown_kb * KIB) {
    throw payloadTooLarge('markdown_limit', `The Markdown is larger than ${limits.markdown_kb} KB.`, {
      name: 'markdown_kb',
      value: limits.markdown_kb,
      plan,
    });
  }
  if (measure.embeddedBytes > limits.resources_mb * MIB) {
    throw payloadTooLarge('resource_limit', `Embedded resources are larger than ${limits.resources_mb} MB.`, {
      name: 'resources_mb',
      value: limits.resources_mb,
      plan,
    });
  }
  if (measure.embeddedCount > MAX_EMBEDDED_RESOURCES) {
    throw tooManyResources(`The document embeds more than ${MAX_EMBEDDED_RESOURCES} resources.`, {
      name: 'embedded_resources',
      value: MAX_EMBEDDED_RESOURCES,
      plan,
    });
  }
  if (measure.remoteCount > MAX_REMOTE_RESOURCES) {
    throw tooManyResources(`The document links more than ${MAX_REMOTE_RESOURCES} remote resources.`, {
      name: 'remote_resources',
      value: MAX_REMOTE_RESOURCES,
      plan,
    });
  }
}
