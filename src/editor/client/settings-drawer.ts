/**
 * The settings drawer: document settings written as front matter lines (theme, paper, language,
 * contents, design controls) and the request's feature switches, kept in the browser.
 */
import { readSetting } from './front-matter.js';

/** Front matter keys the drawer edits: each field's `name` is its key. */
export const FRONT_MATTER_FIELDS = ['theme', 'paper', 'orientation', 'language', 'toc', 'font_size', 'columns', 'accent', 'watermark'] as const;

const FEATURE_SWITCHES = ['math', 'mermaid', 'highlight', 'emoji', 'smart_typography', 'tasks', 'images', 'hyphenation', 'tagged'] as const;
const FEATURES_KEY = 'quire.features';

export class SettingsDrawer {
  constructor(
    private readonly form: HTMLFormElement,
    onSetting: (key: string, value: string | null) => void,
    onFeatures: () => void,
  ) {
    for (const key of FRONT_MATTER_FIELDS) {
      const field = this.field(key);
      field.addEventListener('change', () => onSetting(key, this.valueOf(field)));
    }
    const stored = this.storedFeatures();
    for (const name of FEATURE_SWITCHES) {
      const box = this.form.elements.namedItem(`feature-${name}`) as HTMLInputElement;
      box.checked = stored[name] ?? true; // every switch here is on by default, as in the API
      box.addEventListener('change', () => {
        localStorage.setItem(FEATURES_KEY, JSON.stringify(this.features()));
        onFeatures();
      });
    }
  }

  /** The request's `features`: every switch, as shown. */
  features(): Record<string, boolean> {
    const features: Record<string, boolean> = {};
    for (const name of FEATURE_SWITCHES) features[name] = (this.form.elements.namedItem(`feature-${name}`) as HTMLInputElement).checked;
    return features;
  }

  /** Shows what the document's front matter says now. */
  showDocument(text: string): void {
    for (const key of FRONT_MATTER_FIELDS) {
      const field = this.field(key);
      if (field === document.activeElement) continue;
      const value = readSetting(text, key);
      if (field instanceof HTMLInputElement && field.type === 'checkbox') field.checked = value === 'true';
      else field.value = value ?? (field instanceof HTMLInputElement && field.type === 'color' ? '#0969da' : '');
    }
  }

  private field(key: string): HTMLInputElement | HTMLSelectElement {
    return this.form.elements.namedItem(key) as HTMLInputElement | HTMLSelectElement;
  }

  private valueOf(field: HTMLInputElement | HTMLSelectElement): string | null {
    if (field instanceof HTMLInputElement && field.type === 'checkbox') return field.checked ? 'true' : null;
    const value = field.value.trim();
    return value === '' ? null : value;
  }

  private storedFeatures(): Record<string, boolean> {
    try {
      return JSON.parse(localStorage.getItem(FEATURES_KEY) ?? '{}') as Record<string, boolean>;
    } catch {
      return {};
    }
  }
}
