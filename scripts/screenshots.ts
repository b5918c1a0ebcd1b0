/**
 * `npm run screenshots [DIR]`: pictures of the report's first screen for the README, so a
 * reader sees the report before running anything. It re-renders DIR/report.html with this
 * checkout's renderer (default DIR: reports/retry-storm, written by `npm start`), opens it in
 * headless Chromium (/usr/bin/chromium, or $CHROMIUM) and writes, into docs/:
 *   report-first-screen.png   a 1400x900 window
 *   report-phone.png          a phone, 390x844
 * It waits for the page's own "every chart drawn" signal, never for a fixed time.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { readResultsFolder } from '../src/results/bundle.js';
import { writeReport } from '../src/report/write.js';

const ROOT = resolve(import.meta.dirname, '..');
const dir = resolve(process.argv[2] ?? join(ROOT, 'reports', 'retry-storm'));
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

const SHOTS = [
  { file: 'report-first-screen.png', viewport: { width: 1400, height: 900 }, scale: 1 },
  { file: 'report-phone.png', viewport: { width: 390, height: 844 }, scale: 2 },
];

if (!existsSync(join(dir, 'summary.json'))) {
  console.error(`${dir} has no summary.json: run the flagship first (npm start), or name a results folder: npm run screenshots -- DIR`);
  process.exit(2);
}
if (!existsSync(browserPath)) {
  console.error(`no Chromium at ${browserPath}: install it (apt-get install -y chromium) or set CHROMIUM`);
  process.exit(2);
}

writeReport(readResultsFolder(dir), dir);
const browser = await chromium.launch({
  executablePath: browserPath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  for (const s of SHOTS) {
    const page = await browser.newPage({ viewport: s.viewport, deviceScaleFactor: s.scale });
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    await page.waitForFunction(() => (globalThis as { __reportReady?: boolean }).__reportReady === true, null, { timeout: 120_000 });
    const errors = await page.evaluate(() => (globalThis as { __reportErrors?: string[] }).__reportErrors ?? []);
    if (errors.length > 0) throw new Error(`the report drew with errors: ${errors.join('; ')}`);
    const out = join(ROOT, 'docs', s.file);
    await page.screenshot({ path: out });
    console.log(`wrote ${out} (${s.viewport.width}x${s.viewport.height})`);
    await page.close();
  }
} finally {
  await browser.close();
}
