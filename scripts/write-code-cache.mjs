/** Runs the bundled command as bin/quire.js does, then writes each loaded file's V8 code cache (see bundle-cli.mjs). */
import { runBundle } from '../bin/load-bundle.js';

runBundle({ writeCache: true });
