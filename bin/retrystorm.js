#!/usr/bin/env node
// Runs the CLI from its bundle (npm install builds it through the "prepare" script; see
// scripts/bundle.mjs). A stack trace asked for with RETRYSTORM_DEBUG points into the sources.
if (process.env.RETRYSTORM_DEBUG) process.setSourceMapsEnabled(true);
const { runCli } = await import('../dist/bundle/cli/main.js');

await runCli();
