#!/usr/bin/env node
// Runs the compiled CLI (npm install builds it through the "prepare" script).
import { runCli } from '../dist/src/cli/main.js';

await runCli();
