/** Messages between the render pool and its workers: plain data, cloneable across threads. */
import type { Features, ResourceMode } from '@quire/engine';
import type { PhaseTimings } from '@quire/engine';
import type { PreviewPage } from '@quire/engine';
import type { NetSettings } from '../net/net-settings.js';

export interface RenderTask {
  markdown: string;
  features: Features;
  language: string | undefined;
  resources: ResourceMode;
  /** Layout stops past this many pages. */
  maxPages: number;
  /** Bytes all loaded resources may use together. */
  resourceBytes: number;
  /** The plan loads linked (remote) resources. */
  remoteResources: boolean;
  /** The public identity remote resources are requested under (`X-Service-Fetch-Id`). */
  fetchId: string;
  /** The editor's preview: pages as pictures instead of a PDF (see engine renderPreview). */
  preview?: PreviewAsk;
}

export interface PreviewAsk {
  /** Hashes of the pages the editor already shows: those come back without pixels. */
  knownPages: string[];
  /** The page the editor shows at the top: pages to draw are chosen nearest it. */
  focusPage: number;
  /** The hash of the picture the editor shows for each page (null: none): a changed page may come back as a band over it. */
  shownPages: (string | null)[];
}

export interface PreviewOutput {
  pages: PreviewPage[];
  warnings: string[];
}

export interface RenderOutput {
  /** Empty for a preview. */
  pdf: Uint8Array;
  /** Present for a preview task. */
  preview?: PreviewOutput;
  pages: number;
  timings: PhaseTimings;
  resources: { total: number; failed: string[]; bytes: number; digest: string };
  /** Requests sent to remote hosts for the document's resources. */
  remoteRequests: number;
}

/** Why the engine refused or failed, as the worker reports it. */
export type EngineFailure =
  | { kind: 'page_limit'; pagesReached: number }
  | { kind: 'timeout' }
  | { kind: 'renderer_bound'; bound: string }
  | { kind: 'resource_budget' }
  | { kind: 'resource'; resourceId: string; reason: string }
  /** The document links more distinct remote resources than `limit`. */
  | { kind: 'too_many_remote'; limit: number }
  | { kind: 'empty_document' }
  | { kind: 'invalid_option'; key: string; message: string }
  /** The document cannot be read (e.g. its front matter); the message is about the document only. */
  | { kind: 'document'; message: string }
  /** Anything else the engine threw; `detail` is for the service log, never for the client. */
  | { kind: 'engine'; detail: string };

/** Why the pool could not give an answer from the engine. */
export type PoolFailure =
  | { kind: 'pool_timeout' }
  | { kind: 'out_of_memory' }
  | { kind: 'crashed' }
  | { kind: 'queue_full' }
  /** The pool is closing or no worker could be started. */
  | { kind: 'unavailable' };

export type RenderFailure = EngineFailure | PoolFailure;

/** A task's answer from the engine. */
export type TaskReply = { type: 'done'; output: RenderOutput } | { type: 'failed'; failure: EngineFailure };

/** `worn`: the worker's heap stayed large after the task, so the pool replaces it. */
export type WorkerReply = { type: 'ready' } | (TaskReply & { worn: boolean });

export interface WorkerSetup {
  /** URL of the module whose `render` the worker calls: the engine, or a test stand-in. */
  engineModule: string;
  /** Outbound requests for remote resources; absent: none are made and every remote resource fails. */
  net: NetSettings | undefined;
}
