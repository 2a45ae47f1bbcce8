#!/usr/bin/env node
// The `quire` command: runs the compiled CLI (built by `npm install` through the prepare script).
import '../dist/src/cli/main.js';
