/**
 * The browser builds of vega, vega-lite and vega-embed, read from node_modules so the report
 * works offline. The packages' `exports` maps hide build/*.min.js from import resolution,
 * so each file is found next to the package's resolved main entry (build/…), and read once.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** In load order: vega-lite needs the `vega` global, vega-embed both. */
const BUILDS = [
  { pkg: 'vega', file: 'vega.min.js' },
  { pkg: 'vega-lite', file: 'vega-lite.min.js' },
  { pkg: 'vega-embed', file: 'vega-embed.min.js' },
] as const;

export interface VendorScript { name: string; version: string; source: string }

let cache: VendorScript[] | undefined;

export function vendorScripts(): VendorScript[] {
  cache ??= BUILDS.map(({ pkg, file }) => {
    const main = require.resolve(pkg); // …/node_modules/<pkg>/build/<main>.js
    const path = join(dirname(main), file);
    let source: string;
    try {
      source = readFileSync(path, 'utf8');
    } catch {
      throw new Error(`cannot read ${path}: the report inlines ${pkg}'s browser build; reinstall ${pkg}`);
    }
    const version = (JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string }).version;
    return { name: pkg, version, source };
  });
  return cache;
}
