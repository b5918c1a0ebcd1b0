/**
 * Opening report.html in a real browser for the tests: Debian's Chromium through
 * playwright-core, offline, with every request, page error and console warning recorded.
 * Tests that need it skip (and say why) only when neither browser below is installed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's chromium-headless-shell when it is installed, else its chromium. Both are built from
 * the same Debian source at the same version: the same Blink, V8 and Skia draw the report.
 * The shell is Chromium's headless browser without the desktop browser around it (what
 * Playwright and Puppeteer run for headless tests by default); chromium's own headless mode
 * starts the whole desktop browser, a WebUI renderer for its tab strip included. Launching
 * and opening a small report took the shell about 4.3 s of CPU against 8.6 s, and the four
 * browser test files 35 s of the machine's CPU against 57 s (docs/testing.md).
 */
export const CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));
export const hasChromium = CHROMIUM !== undefined;
export const skipNote = hasChromium ? '' : ' [skipped: no Chromium found; install it with apt-get install -y chromium-headless-shell (or chromium)]';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/**
 * One Chromium per test worker, shared by the browser test files it runs (they share the
 * worker's modules: `isolate: false` in vitest.config.ts). Starting and closing a Chromium took
 * a few seconds per file. Each file hands its pages back with `release`; the browser ends with
 * the worker process (playwright closes the browsers it launched when its process exits).
 */
let shared: Promise<Browser> | undefined;
export function launch(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS }).then((browser) => {
    browser.on('disconnected', () => (shared = undefined)); // a crashed browser is launched afresh
    return browser;
  }, (e: unknown) => {
    shared = undefined;
    throw e;
  });
  return shared;
}

/** Closes what a test file opened in the shared browser (its pages, each in a context of its own), keeping the browser. */
export async function release(browser: Browser | undefined): Promise<void> {
  if (browser) await Promise.all(browser.contexts().map((c) => c.close()));
}

export interface Watch { requests: string[]; problems: string[]; dialogs: string[] }

/** Opens DIR/report.html (or DIR/`file`: calibration.html, whose script signals the same) at the given viewport and waits until every chart has rendered (or failed). */
export async function openReport(browser: Browser, dir: string, viewport = { width: 1280, height: 900 }, file = 'report.html'): Promise<{ page: Page; watch: Watch; url: string }> {
  const page = await browser.newPage({ viewport });
  const watch: Watch = { requests: [], problems: [], dialogs: [] };
  page.on('request', (r) => watch.requests.push(r.url()));
  page.on('pageerror', (e) => watch.problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') watch.problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('dialog', (d) => { watch.dialogs.push(d.message()); void d.dismiss(); });
  const url = pathToFileURL(join(dir, file)).href;
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as { __reportReady?: boolean }).__reportReady === true, null, { timeout: 60_000 });
  return { page, watch, url };
}

/** Waits until the page has run one more frame (a signal, not a sleep): after a click, vega re-renders in a frame. */
export function nextFrames(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((done) => {
    const raf = (globalThis as unknown as { requestAnimationFrame: (f: () => void) => void }).requestAnimationFrame;
    raf(() => raf(() => done(null)));
  }));
}
