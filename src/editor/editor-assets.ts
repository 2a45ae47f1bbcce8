/**
 * The editor's browser code and styles, bundled at build time (scripts/bundle-editor.mjs) into
 * dist/editor/ under content-hashed names, so they are served with a year's cache: a new build
 * names new files. Nothing is fetched from anywhere else.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

const ASSETS = new URL('../../editor/', import.meta.url);
/** Hashed file names only: letters, digits, dashes and one extension. */
const ASSET_NAME = /^[A-Za-z0-9-]+\.(js|css)$/;
const TYPES: Readonly<Record<string, string>> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

export interface EditorManifest {
  script: string;
  style: string;
}

let manifest: EditorManifest | null | undefined;

/** The hashed names of the page's script and style, as the build wrote them; null when the editor was not built. */
export function editorManifest(): EditorManifest | null {
  if (manifest === undefined) {
    try {
      manifest = JSON.parse(readFileSync(new URL('manifest.json', ASSETS), 'utf8')) as EditorManifest;
    } catch {
      manifest = null;
    }
  }
  return manifest;
}

/** The asset's response, or undefined for a name the build did not write. */
export async function editorAsset(name: string): Promise<Response | undefined> {
  const match = ASSET_NAME.exec(name);
  if (!match) return undefined;
  const bytes = await readFile(new URL(name, ASSETS)).catch(() => undefined);
  if (!bytes) return undefined;
  return new Response(bytes, {
    headers: { 'Content-Type': TYPES[match[1]!]!, 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' },
  });
}
