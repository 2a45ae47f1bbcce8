#!/usr/bin/env node
// The `quire` command: runs the compiled CLI (built by `npm install` through the prepare script),
// from the bundle when the build made one (a cold start then takes about half the time).
// CommonJS, as is the loader: an ES module entry point starts Node's module loader first (~6 ms).
const { hasBundle, runBundle } = require('./load-bundle.cjs');

if (hasBundle()) runBundle();
else import('../dist/src/cli/main.js');
