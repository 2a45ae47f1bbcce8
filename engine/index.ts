/**
 * Quire's engine: Markdown in, PDF bytes out, in one direction —
 *
 *   markdown ─parse─▶ mdast ─build─▶ document ─layout─▶ pages of boxes ─paint─▶ PDF bytes
 *
 * Two ways to run it: `render` and `renderFiles` (render.ts) on the caller's thread, blocking its
 * event loop for the whole render — for scripts; `createRenderer` (renderer/) on a pool of worker
 * threads, where an abort signal or a time limit stops a render mid-way — for servers and tools.
 */
export {
  render,
  renderFiles,
  renderToFile,
  renderToStream,
  type MarkdownFile,
  type RenderCallOptions,
  type RenderResult,
} from './render.js';
export { createRenderer, type Renderer, type RendererOptions } from './renderer/renderer.js';
export * from './errors.js';
export * from './options.js';
export { RenderCache } from './render-cache.js';
export type { DesignSettings, Margins, Orientation } from './style/design-settings.js';
export type { RunningLine } from './style/running-lines.js';
export type { PhaseTimings } from './phase-clock.js';
export type { ResourceOutcome } from './resources/outcome.js';
export { ResourceLoadError, noLoader, type LoadContext, type LoadedResource, type ResourceLoader, type ResourceFailureReason } from './resources/loader.js';
export { folderLoader, localPath } from './resources/folder-loader.js';
export { combineLoaders } from './resources/combine-loaders.js';
export {
  remoteLoader,
  DEFAULT_MAX_REMOTE_BYTES,
  DEFAULT_MAX_REMOTE_RESOURCES,
  type RemoteLoaderOptions,
  type RemoteResourceLoader,
} from './resources/remote/remote-loader-options.js';
export { renderPreview, type PreviewOptions, type PreviewPage, type PreviewResult } from './preview/preview.js';
export { decodeDataUri, isDataUri, base64DecodedLength } from './resources/data-uri.js';
export { FRONT_MATTER_KEYS, closestKey, unknownKeyWarnings } from './parse/front-matter-keys.js';
