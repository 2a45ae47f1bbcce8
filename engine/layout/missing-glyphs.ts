import type { Page } from './frame.js';

/**
 * One warning per character drawn as a box (glyph 0, `.notdef` in every font) because no
 * bundled or installed font has it, naming the pages it is on: "no font has U+E000 (""),
 * drawn as a box on pages 1, 3".
 */
export function missingGlyphWarnings(pages: readonly Page[]): string[] {
  const pagesOf = new Map<string, Set<number>>();
  pages.forEach((page, index) => {
    for (const item of page.items) {
      if (item.kind !== 'glyphs' || item.invisible) continue;
      // Indexed: every glyph of the document passes here once, too few times for V8 to optimise
      // an iterator away (it made 6 MB of garbage on the CommonMark spec).
      const glyphs = item.glyphs;
      for (let k = 0; k < glyphs.length; k++) {
        const glyph = glyphs[k]!;
        if (glyph.id !== 0) continue;
        // A box standing for characters no font has carries them as its ActualText.
        for (const char of glyph.chars || item.actualText || '') {
          let numbers = pagesOf.get(char);
          if (!numbers) pagesOf.set(char, (numbers = new Set()));
          numbers.add(index + 1);
        }
      }
    }
  });
  return [...pagesOf].map(([char, numbers]) => {
    const list = [...numbers];
    return `no font has ${codePointName(char)} ("${char}"), drawn as a box on page${list.length === 1 ? '' : 's'} ${list.join(', ')}`;
  });
}

function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
