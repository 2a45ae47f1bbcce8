/** The looks a document is drawn in: dark text on white paper, or light text on a dark page. */
export type Theme = 'light' | 'dark';
export const THEMES: readonly Theme[] = ['light', 'dark'];
