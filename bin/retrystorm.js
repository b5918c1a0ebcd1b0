#!/usr/bin/env node
// Runs the CLI from its bundle (npm install builds it through the "prepare" script; see
// scripts/bundle.mjs). With RETRYSTORM_DEBUG it runs the compiled modules instead, whose
// source maps point a stack trace into the sources (the bundle runs as a V8 script, for
// its code cache, and Node maps no script's stack).
import { statSync } from 'node:fs';

// The bundle is made from dist/src/ by the last step of `npm run build`. After a bare
// `tsc -b` it is older than what tsc has just compiled, and would run yesterday's code: the
// compiled modules run then (slower to start, never stale). An installed package has no
// build info, and runs its bundle.
const modified = (path) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? -Infinity;
const bundle = '../dist/bundle/cli/main.js';
const fresh = modified(bundle) >= modified('../dist/tsconfig.build.tsbuildinfo');
const debug = Boolean(process.env.RETRYSTORM_DEBUG);
if (debug) process.setSourceMapsEnabled(true);
const { runCli } = await import(fresh && !debug ? bundle : '../dist/src/cli/main.js');

await runCli();
