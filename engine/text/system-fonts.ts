import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { SYSTEM_FONT_DIRS } from './font-catalog.js';
import { Face } from './face.js';
import { covers, readCoverage } from './cmap-coverage.js';

const FONT_FILE = /\.(ttf|otf|ttc|otc)$/i;
const MAX_FONT_FILES = 2_000;

/** What one face of a file covers, from its character map. */
interface Coverage {
  file: string;
  index: number;
  bold: boolean;
  ranges: Uint32Array;
}

/**
 * Fonts found in the system's font folders, consulted only when a character is not covered by
 * the bundled faces. Each file is read once for its character map and then let go; only the
 * faces actually chosen stay loaded. Files are visited in sorted order so the choice repeats.
 */
export class SystemFonts {
  private coverage: Coverage[] | null = null;
  private readonly loaded = new Map<string, Face | null>();

  /** The first system face with a glyph for every one of `codePoints`, preferring bold ones for bold text. */
  faceFor(codePoints: readonly number[], bold: boolean): Face | null {
    const covering = this.index().filter((entry) => codePoints.every((codePoint) => covers(entry.ranges, codePoint)));
    const ordered = [...covering.filter((entry) => entry.bold === bold), ...covering.filter((entry) => entry.bold !== bold)];
    for (const entry of ordered) {
      const face = this.face(entry);
      if (face && codePoints.every((codePoint) => face.has(codePoint))) return face;
    }
    return null;
  }

  private index(): Coverage[] {
    if (this.coverage) return this.coverage;
    this.coverage = [];
    for (const file of fontFiles()) {
      try {
        // Bold by file name: the character map is all that is read until a face is chosen.
        const bold = /bold|black|heavy/i.test(path.basename(file));
        for (const { index, ranges } of readCoverage(file)) this.coverage.push({ file, index, bold, ranges });
      } catch {
        // An unreadable font file is skipped, never fatal.
      }
    }
    return this.coverage;
  }

  private face(entry: Coverage): Face | null {
    const key = `system:${entry.file}#${entry.index}`;
    let face = this.loaded.get(key);
    if (face === undefined) {
      try {
        const bytes = readFileSync(entry.file);
        const loaded = fontkit.create(bytes);
        const font = 'fonts' in loaded ? loaded.fonts[entry.index]! : loaded;
        face = new Face(key, font, bytes, entry.index);
      } catch {
        face = null;
      }
      this.loaded.set(key, face);
    }
    return face;
  }
}

function fontFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 6 || found.length >= MAX_FONT_FILES) return;
    let entries: Dirent[];
    try {
      // Entry types come with the listing: a stat per entry cost ~40 ms over Debian's 700 font-folder entries.
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = `${dir}/${entry.name}`;
      if (entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(full))) walk(full, depth + 1);
      else if (FONT_FILE.test(entry.name)) found.push(full);
    }
  };
  for (const dir of SYSTEM_FONT_DIRS) walk(dir, 0);
  return found;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
