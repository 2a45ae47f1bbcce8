/**
 * `quire render notes.md --watch`: renders, then renders again after every save of the file or
 * of a local image it shows, until interrupted, one line per render. The file's folder is
 * watched, not the file: editors often save by writing a new file and renaming it over the old
 * one, which ends a watch on the file itself. Images may be anywhere under the root, so each is
 * polled (a watch per folder would be needed otherwise). The renders share a RenderCache: a save
 * lays out and compresses again only what it changed; and the remote images they load: a save
 * fetches only those it adds (or that failed before).
 */
import { statSync, unwatchFile, watch, watchFile as pollFile, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RenderCache } from '@quire/engine';
import { renderFile, type RenderSettings } from './render-file.js';
import { RemoteImageMemory } from './resource-loader.js';
import { pages, seconds, StatusLine } from './status-line.js';

/** Saves closer together than this are one change (an editor may write a file in several steps). */
const DEBOUNCE_MS = 120;
/** How often a shown image's file is checked for a change. */
const IMAGE_POLL_MS = 400;

export function watchFile(input: string, output: string, settings: RenderSettings): Promise<never> {
  const status = new StatusLine();
  const cache = new RenderCache();
  const remoteImages = new RemoteImageMemory();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;

  let images = new Set<string>();
  const renderOnce = async () => {
    running = true;
    const started = performance.now();
    const shown = new Set<string>();
    try {
      const rendered = await renderFile(input, { ...settings, cache, remoteImages, onLocalFile: (file) => shown.add(file) });
      writeFileSync(output, rendered.pdf);
      for (const warning of rendered.warnings) status.print(`quire: warning: ${warning}`);
      status.print(`quire: wrote ${output} (${pages(rendered.pages)}, ${seconds(performance.now() - started)})`);
      // Only after a render that went through: one stopped early (a broken front matter) showed none.
      remoteImages.forgetUnshown();
    } catch (error) {
      status.print(`quire: ${input}: ${error instanceof Error ? error.message : String(error)}`);
    }
    follow(shown);
    running = false;
    if (again) {
      again = false;
      void renderOnce();
    } else {
      status.show(`quire: watching ${input} (Ctrl-C to stop)`);
    }
  };
  /** Polls the images this render showed, and stops polling those it no longer does. */
  const follow = (shown: Set<string>) => {
    for (const file of images) if (!shown.has(file)) unwatchFile(file);
    for (const file of shown) if (!images.has(file)) pollImage(file);
    images = shown;
  };
  /**
   * Compared with the time read now, not with the poller's first look, which comes later from
   * another thread: an image made in between (just after the render that missed it) would be
   * its starting point, and never a change.
   */
  const pollImage = (file: string) => {
    let seen = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    pollFile(file, { interval: IMAGE_POLL_MS }, (now) => {
      if (now.mtimeMs === seen) return;
      seen = now.mtimeMs;
      changed();
    });
  };
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (running) again = true;
      else void renderOnce();
    }, DEBOUNCE_MS);
  };

  const name = path.basename(input);
  watch(path.dirname(path.resolve(input)), (_event, file) => {
    if (file === null || file === name) changed();
  });
  void renderOnce();
  return new Promise<never>(() => undefined);
}
