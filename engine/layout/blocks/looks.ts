import type { HeadingLevel } from '../../document/types.js';
import { METRICS } from '../../style/metrics.js';
import type { Palette } from '../../style/palette.js';
import type { TextLook } from './text-block.js';

/** The text looks of the default theme, in one place. */
export function bodyLook(palette: Palette): TextLook {
  return { font: { family: 'serif', weight: 'regular', italic: false }, size: METRICS.bodySize, leading: METRICS.bodyLeading, color: palette.text };
}

export function headingLook(level: HeadingLevel, palette: Palette): TextLook {
  const size = METRICS.bodySize * METRICS.headingScale[level - 1]!;
  return {
    font: { family: 'heading', weight: 'semibold', italic: level === 6 },
    size,
    leading: Math.max(METRICS.bodyLeading, size * 1.22),
    color: level === 6 ? palette.muted : palette.heading,
    align: 'start',
    hyphenate: false,
  };
}

export function codeLook(palette: Palette): TextLook {
  return {
    font: { family: 'mono', weight: 'regular', italic: false },
    size: METRICS.codeSize,
    leading: METRICS.codeLeading,
    color: palette.codeText,
    features: 'code',
    align: 'start',
    hyphenate: false,
  };
}

export function smallLook(palette: Palette): TextLook {
  return {
    font: { family: 'serif', weight: 'regular', italic: false },
    size: METRICS.smallSize,
    leading: METRICS.smallLeading,
    color: palette.muted,
    align: 'start',
    hyphenate: false,
  };
}
