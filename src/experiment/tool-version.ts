/**
 * The version of retrystorm, from one leaf module that imports nothing, in the lowest layer
 * that records it: summary.json carries it, runs.json carries it with a digest of the code
 * (tool-build.ts: merge and reuse compare builds, not only versions), and `retrystorm
 * --version` prints it. It must equal package.json's version: test/cli/package.test.ts checks
 * that they agree.
 */
export const TOOL_VERSION = '0.1.0';
