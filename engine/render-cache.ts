/**
 * What a render keeps for the next render of a document being edited (`quire render --watch`,
 * a program rendering as its user types): the top-level blocks it laid out, so an edit lays out
 * only the blocks it changed; its diagrams and highlighted code, so they are not made again; the
 * streams it compressed, so only the pages an edit changed are compressed again; and its images
 * with alpha, split into colour and soft mask, so a screenshot is decoded once. Pass the same cache to each render of the document (`options.cache`); its
 * memory is bounded whatever the documents (see BlockCache, CodeBlockCache, StreamCache and
 * SplitImageCache).
 *
 * A handle: what it keeps is the engine's own (cache-parts.ts), so its declarations name none of
 * the engine's inner types.
 */
export class RenderCache {}
