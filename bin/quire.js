#!/usr/bin/env node
// The `quire` command: runs the compiled CLI (built by `npm install` through the prepare script),
// from the bundle when the build made one (a cold start then takes about half the time).
import { hasBundle, runBundle } from './load-bundle.js';

if (hasBundle()) runBundle();
else await import('../dist/src/cli/main.js');
