import { fileURLToPath } from 'node:url';
import path from 'node:path';

/**
 * A face's family as looks name it: `serif` is the document's text family and `heading` its
 * headings' (both Source Serif 4 unless the document chooses Source Sans 3), `sans` and `mono`
 * are themselves.
 */
export type Family = 'serif' | 'heading' | 'sans' | 'mono';
export type Weight = 'regular' | 'semibold' | 'bold';

export interface FontStyle {
  family: Family;
  weight: Weight;
  italic: boolean;
}

/** What a face's letters look like, so that a fallback can match the text around it. */
export type Design = 'serif' | 'sans' | 'mono';

export interface BundledFace {
  key: string;
  file: string;
  family: Exclude<Family, 'heading'> | 'fallback';
  design: Design;
  weight: Weight;
  italic: boolean;
}

/** The folder of bundled fonts, in the engine package (dist/text → fonts). */
export const FONTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fonts');

const face = (key: string, file: string, family: BundledFace['family'], design: Design, weight: Weight, italic = false): BundledFace => ({
  key,
  file: path.join(FONTS_DIR, file),
  family,
  design,
  weight,
  italic,
});

/**
 * Every bundled face. The text face is Source Serif 4 (designed for reading at text sizes,
 * true italics, Latin/Greek/Cyrillic), or its companion Source Sans 3 when a document asks for
 * a sans; code is JetBrains Mono; the fallbacks cover polytonic
 * Greek (Noto Serif cut down to Greek: Source Serif 4 has monotonic Greek only), Arabic,
 * Hebrew and a broad set of symbols. Licences sit beside each file.
 */
export const BUNDLED_FACES: readonly BundledFace[] = [
  face('serif', 'source-serif-4/SourceSerif4_400Regular.ttf', 'serif', 'serif', 'regular'),
  face('serif-italic', 'source-serif-4/SourceSerif4_400Regular_Italic.ttf', 'serif', 'serif', 'regular', true),
  face('serif-semibold', 'source-serif-4/SourceSerif4_600SemiBold.ttf', 'serif', 'serif', 'semibold'),
  face('serif-semibold-italic', 'source-serif-4/SourceSerif4_600SemiBold_Italic.ttf', 'serif', 'serif', 'semibold', true),
  face('serif-bold', 'source-serif-4/SourceSerif4_700Bold.ttf', 'serif', 'serif', 'bold'),
  face('serif-bold-italic', 'source-serif-4/SourceSerif4_700Bold_Italic.ttf', 'serif', 'serif', 'bold', true),
  face('sans', 'source-sans-3/SourceSans3_400Regular.ttf', 'sans', 'sans', 'regular'),
  face('sans-italic', 'source-sans-3/SourceSans3_400Regular_Italic.ttf', 'sans', 'sans', 'regular', true),
  face('sans-semibold', 'source-sans-3/SourceSans3_600SemiBold.ttf', 'sans', 'sans', 'semibold'),
  face('sans-semibold-italic', 'source-sans-3/SourceSans3_600SemiBold_Italic.ttf', 'sans', 'sans', 'semibold', true),
  face('sans-bold', 'source-sans-3/SourceSans3_700Bold.ttf', 'sans', 'sans', 'bold'),
  face('sans-bold-italic', 'source-sans-3/SourceSans3_700Bold_Italic.ttf', 'sans', 'sans', 'bold', true),
  face('mono', 'jetbrains-mono/JetBrainsMono_400Regular.ttf', 'mono', 'mono', 'regular'),
  face('mono-italic', 'jetbrains-mono/JetBrainsMono_400Regular_Italic.ttf', 'mono', 'mono', 'regular', true),
  face('mono-bold', 'jetbrains-mono/JetBrainsMono_700Bold.ttf', 'mono', 'mono', 'bold'),
  face('mono-bold-italic', 'jetbrains-mono/JetBrainsMono_700Bold_Italic.ttf', 'mono', 'mono', 'bold', true),
  face('greek', 'noto-serif-greek/NotoSerifGreek_400Regular.ttf', 'fallback', 'serif', 'regular'),
  face('greek-italic', 'noto-serif-greek/NotoSerifGreek_400Regular_Italic.ttf', 'fallback', 'serif', 'regular', true),
  face('greek-bold', 'noto-serif-greek/NotoSerifGreek_700Bold.ttf', 'fallback', 'serif', 'bold'),
  face('greek-bold-italic', 'noto-serif-greek/NotoSerifGreek_700Bold_Italic.ttf', 'fallback', 'serif', 'bold', true),
  face('arabic', 'noto-sans-arabic/NotoSansArabic_400Regular.ttf', 'fallback', 'sans', 'regular'),
  face('arabic-bold', 'noto-sans-arabic/NotoSansArabic_700Bold.ttf', 'fallback', 'sans', 'bold'),
  face('hebrew', 'noto-sans-hebrew/NotoSansHebrew_400Regular.ttf', 'fallback', 'sans', 'regular'),
  face('hebrew-bold', 'noto-sans-hebrew/NotoSansHebrew_700Bold.ttf', 'fallback', 'sans', 'bold'),
  face('symbols', 'dejavu/DejaVuSans.ttf', 'fallback', 'sans', 'regular'),
  face('symbols-bold', 'dejavu/DejaVuSans-Bold.ttf', 'fallback', 'sans', 'bold'),
];

/** Folders searched, in order, for fonts covering what the bundled ones do not (e.g. CJK). */
export const SYSTEM_FONT_DIRS: readonly string[] = [
  '/usr/share/fonts',
  '/usr/local/share/fonts',
  path.join(process.env.HOME ?? '/nonexistent', '.local/share/fonts'),
  path.join(process.env.HOME ?? '/nonexistent', '.fonts'),
  '/Library/Fonts',
  '/System/Library/Fonts',
];
