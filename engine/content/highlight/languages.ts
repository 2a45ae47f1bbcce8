import type { HLJSApi, LanguageFn } from 'highlight.js';
import { ALIASES } from './aliases.js';

/** A language module's file name in highlight.js (`javascript`, `cpp`, `x86asm`, `node-repl`…). */
const LANGUAGE_FILE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

let core: Promise<HLJSApi> | null = null;
/** Language modules asked for by file name, loaded or not, so each is tried once. */
const fileLoads = new Map<string, Promise<void>>();

/**
 * highlight.js with `name` registered, or null when no language answers to it. Loading is lazy:
 * the small core, then the one language module the name or alias points at (a few ms). An
 * unknown name costs nothing more: aliases come from a table generated from highlight.js.
 */
export async function highlighterFor(name: string): Promise<HLJSApi | null> {
  core ??= import('highlight.js/lib/core').then((module) => module.default);
  const hljs = await core;
  if (hljs.getLanguage(name)) return hljs;
  const file = ALIASES[name] ?? name;
  if (!LANGUAGE_FILE.test(file)) return null;
  let load = fileLoads.get(file);
  if (!load) {
    load = import(`highlight.js/lib/languages/${file}`).then(
      (module: { default: LanguageFn }) => hljs.registerLanguage(file, module.default),
      () => undefined,
    );
    fileLoads.set(file, load);
  }
  await load;
  return hljs.getLanguage(name) ? hljs : null;
}
