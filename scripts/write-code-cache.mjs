/** Runs the bundled command as bin/quire.cjs does, then writes each loaded file's V8 code cache (see bundle-cli.mjs). */
import { runBundle } from '../bin/load-bundle.cjs';

runBundle({ writeCache: true });
