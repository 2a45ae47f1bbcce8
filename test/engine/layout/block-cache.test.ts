/**
 * The preview's block cache keeps laid-out blocks within a budget known before any document
 * arrives, whatever the documents: the least recently used go first, and a block too large for
 * the budget is laid out every time rather than kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Block } from '#engine/document/types.js';
import { BlockCache, MOST_KEY_CHARACTERS } from '#engine/layout/blocks/block-cache.js';
import type { BlockFrame, LayoutContext } from '#engine/layout/blocks/context.js';
import type { BlockNodes } from '#engine/layout/vertical.js';
import { Tagger } from '#engine/layout/structure.js';

const frame = { x: 72, width: 451 } as BlockFrame;
const context = { body: { size: 11 }, tagger: new Tagger(null), warn: () => undefined } as unknown as LayoutContext;

/** A layout that only counts how often it ran. */
function countingLayout(): { lay: () => BlockNodes; runs: () => number } {
  let runs = 0;
  return {
    lay: () => {
      runs += 1;
      return [] as unknown as BlockNodes;
    },
    runs: () => runs,
  };
}

function paragraph(text: string): Block {
  return { kind: 'paragraph', inlines: [{ kind: 'text', text }] } as unknown as Block;
}

describe('block cache budget', () => {
  it('should keep blocks within its budget, dropping the least recently used, and re-use what it kept', () => {
    const cache = new BlockCache();
    const { lay, runs } = countingLayout();
    const big = 'word '.repeat(200_000);
    cache.startLayout();
    cache.layout(paragraph(`first ${big}`), frame, context, 'settings', lay);
    for (let i = 0; i < 100; i += 1) {
      cache.startLayout();
      cache.layout(paragraph(`${i} ${big}`), frame, context, 'settings', lay);
      assert.ok(cache.keptCharacters <= MOST_KEY_CHARACTERS, `${cache.keptCharacters} characters kept`);
    }
    assert.equal(runs(), 101);
    assert.ok(cache.keptCharacters > MOST_KEY_CHARACTERS / 2, 'the budget is used');
    // The newest is kept; the first, least recently used, was dropped.
    cache.startLayout();
    cache.layout(paragraph(`99 ${big}`), frame, context, 'settings', lay);
    assert.equal(runs(), 101);
    cache.startLayout();
    cache.layout(paragraph(`first ${big}`), frame, context, 'settings', lay);
    assert.equal(runs(), 102);
  });

  it('should lay out a block larger than the whole budget every time, keeping nothing of it', () => {
    const cache = new BlockCache();
    const { lay, runs } = countingLayout();
    const huge = paragraph('x'.repeat(MOST_KEY_CHARACTERS + 1));
    for (let i = 0; i < 2; i += 1) {
      cache.startLayout();
      cache.layout(huge, frame, context, 'settings', lay);
    }
    assert.equal(runs(), 2);
    assert.equal(cache.keptCharacters, 0);
  });
});
