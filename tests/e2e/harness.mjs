// Shared set-up for the end-to-end tests: the site under test, Debian's Chromium through
// playwright-core, and a page that records every console error and uncaught exception.
//
// The site: KUBEPLAY_E2E_URL if set (scripts/test.sh starts server.mjs and sets it), otherwise
// this process serves KUBEPLAY_DIST (default: the repository's dist/) itself on a free port.
import { after, before } from 'node:test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
// The flags these machines need (root, closed network); playwright adds its own fresh
// --user-data-dir to every launch.
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How long one wait for the page may take (the wasm must download, compile and mount). */
export const WAIT_MS = Number(process.env.KUBEPLAY_E2E_WAIT_MS ?? 20_000);

/**
 * Registers before/after hooks for one test file and returns an object whose `url` and
 * `browser` are filled in once `before` has run. The server (if started here) and the browser
 * are always closed in `after`.
 */
/**
 * Runs the kubeplay command line (`cargo run`, which builds it when needed) in a fresh
 * directory holding `files` ({ name: text }); returns its stdout.
 */
export function kubeplay(args, files = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kubeplay-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const manifest = join(here, '..', '..', 'Cargo.toml');
  return execFileSync(
    'cargo',
    ['run', '--quiet', '--manifest-path', manifest, '-p', 'kubeplay-core', '--bin', 'kubeplay', '--', ...args],
    { cwd: dir, encoding: 'utf8', timeout: 900_000, maxBuffer: 256 * 1024 * 1024 },
  );
}

/** The built site's directory: KUBEPLAY_DIST, or the repository's dist/. */
export function distRoot() {
  return resolve(process.env.KUBEPLAY_DIST ?? join(here, '..', '..', 'dist'));
}

export function useSite() {
  const site = { url: null, browser: null };
  let server = null;
  before(async () => {
    if (process.env.KUBEPLAY_E2E_URL) {
      site.url = process.env.KUBEPLAY_E2E_URL;
    } else {
      const root = distRoot();
      if (!existsSync(join(root, 'index.html'))) {
        throw new Error(`${root}/index.html is missing: build the site first (trunk build --release)`);
      }
      server = await startServer({ root });
      site.url = server.url;
    }
    site.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROME_FLAGS,
      timeout: 30_000,
    });
  });
  after(async () => {
    await site.browser?.close().catch(() => {});
    await server?.close();
  });
  return site;
}

/**
 * Opens the site in a fresh browser context and waits until the app has mounted (the editor
 * is in the DOM). Returns { page, context, problems, responses } where `problems` collects
 * console errors, uncaught page errors and failed requests, as strings. Options: `viewport`,
 * `init(context)`, run before the page is opened (e.g. to add an init script), and `ready`, the
 * selector waited for (default: the editor; the embedded player has none).
 */
export async function openApp(
  site,
  path = '',
  { viewport = { width: 1280, height: 800 }, init, ready = '[data-testid="yaml-editor"]' } = {},
) {
  const context = await site.browser.newContext({ viewport });
  if (init) await init(context);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  page.setDefaultNavigationTimeout(WAIT_MS);
  const problems = [];
  const responses = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      const loc = msg.location();
      problems.push(`console error: ${msg.text()}${loc?.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.stack ?? err.message ?? err}`));
  page.on('requestfailed', (req) =>
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText ?? 'unknown'})`),
  );
  page.on('response', (res) => responses.push(res));
  await page.goto(new URL(path, site.url).href, { waitUntil: 'load' });
  await page.locator(ready).first().waitFor({ state: 'attached' });
  return { page, context, problems, responses };
}

/** The editor's <textarea>: the element with the test id, or the textarea inside it. */
export function editor(page) {
  return page.locator('textarea[data-testid="yaml-editor"], [data-testid="yaml-editor"] textarea').first();
}

/**
 * Polls `read()` until `accept(value)` is true or the time is up; returns the last value.
 * Fails with `describe(value)` so the report shows what the page really had, and fails at once,
 * with the errors, if the app reports any into `problems` (e.g. a panic) while waiting.
 */
export async function waitUntil(read, accept, describe, { problems = [], timeout = WAIT_MS } = {}) {
  const deadline = Date.now() + timeout;
  let value;
  for (;;) {
    value = await read();
    if (accept(value)) return value;
    const errors = appErrors(problems);
    if (errors.length > 0) throw new Error(`the app failed while waiting: ${describe(value)}\n${errors.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms: ${describe(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The text of the first element matching the test id, or null when there is none. */
export async function testIdText(page, id) {
  const loc = page.locator(`[data-testid="${id}"]`).first();
  if ((await loc.count()) === 0) return null;
  return loc.innerText();
}

/**
 * The problems that come from the app itself (uncaught errors, panics logged by
 * console_error_panic_hook, other console errors), leaving out failed resource loads, which the
 * page-load test checks once the network is idle.
 */
export function appErrors(problems) {
  return problems.filter((p) => !/Failed to load resource|^request failed/.test(p));
}
