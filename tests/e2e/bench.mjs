// The browser half of scripts/bench.sh: serves the built site, opens it in headless Chromium
// and runs each benchmark size in the page's own wasm (window.wasmBindings.kubeplay_benchmark,
// the same scenario and readings as `cargo bench --bench scale`), then prints the table beside
// the native figures.
//
//   node bench.mjs --native FILE SIZE...
//   node bench.mjs --page-only SIZE...       (only the runs in the page, below)
// FILE holds the native benchmark's JSON lines (`cargo bench -p kubeplay-core --bench scale --
// --json SIZE...`); one browser page per size, so each wasm memory figure is that size's own.
//
// Then the page itself plays each size as a person would (the editor, Apply, "to end", the
// Cluster view drawing as it goes), with the long tasks (over 50 ms, the Long Tasks API)
// counted from Apply to the end: how responsive the page stays.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROME_FLAGS, distRoot, editor } from './harness.mjs';
import { startServer } from './server.mjs';

const args = process.argv.slice(2);
const nativeAt = args.indexOf('--native');
const nativeFile = nativeAt >= 0 ? args.splice(nativeAt, 2)[1] : null;
// --page-only: only the runs in the page (Apply to the end, long tasks), no table.
const pageAt = args.indexOf('--page-only');
const pageOnly = pageAt >= 0 && args.splice(pageAt, 1).length > 0;
const sizes = args.length > 0 ? args : ['small', 'medium'];
const native = new Map(
  (nativeFile ? readFileSync(nativeFile, 'utf8') : '')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .map((r) => [r.size, r]),
);

const server = await startServer({ root: distRoot() });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
const browserRuns = new Map();
const pageRuns = new Map();
const loads = [];
try {
  // Cold loads (a fresh context each: nothing cached): time from navigation start until the
  // app is interactive (its editor and Apply button are in the page), and bytes gzipped.
  for (let i = 0; i < (pageOnly ? 0 : 5); i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const bodies = [];
    page.on('response', (r) => bodies.push(r.body().then((b) => gzipSync(b, { level: 9 }).length, () => 0)));
    await page.goto(server.url);
    await page.locator('[data-testid="apply"]:not([disabled])').waitFor();
    const interactive = await page.evaluate(() => performance.now());
    await page.waitForLoadState('networkidle');
    const bytes = (await Promise.all(bodies)).reduce((a, b) => a + b, 0);
    loads.push({ interactive, bytes });
    await context.close();
  }
  for (const size of pageOnly ? [] : sizes) {
    const page = await browser.newPage();
    try {
      await page.goto(server.url);
      // Let the page's own default scenario finish first.
      await page.waitForFunction(
        () => document.querySelector('[data-testid="play-state"]')?.dataset.state === 'ended',
        null,
        { timeout: 60_000 },
      );
      const json = await page.evaluate((s) => window.wasmBindings.kubeplay_benchmark(s), size);
      browserRuns.set(size, JSON.parse(json));
    } catch (e) {
      browserRuns.set(size, { error: String(e.message ?? e).split('\n')[0] });
    } finally {
      await page.close().catch(() => {});
    }
  }
  for (const size of sizes) {
    pageRuns.set(size, await playInPage(size).catch((e) => ({ error: String(e.message ?? e).split('\n')[0] })));
  }
} finally {
  await browser.close();
  await server.close();
}

/** Plays a size in the page, Cluster view, from Apply to the end; long tasks meanwhile. */
async function playInPage(size) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`${server.url}#view=cluster`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="play-state"]')?.dataset.state === 'ended',
      null,
      { timeout: 60_000 },
    );
    const text = await page.evaluate((s) => window.wasmBindings.kubeplay_benchmark_scenario(s), size);
    // Pasted: one input event. (Playwright's fill types a multi-line text as one input event
    // per line, and the editor parses the whole text at each: the large size never finished.)
    await editor(page).evaluate((el, t) => {
      el.value = t;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, text);
    await page.locator('[data-testid="apply"]:not([disabled])').waitFor();
    const start = await page.evaluate(() => performance.now());
    await page.click('[data-testid="apply"]');
    await page.click('[data-testid="to-end"]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="play-state"]')?.dataset.state === 'ended',
      null,
      { timeout: 900_000, polling: 250 },
    );
    const end = await page.evaluate(() => performance.now());
    const tasks = await page.evaluate((t) => window.__longTasks.filter(([at]) => at >= t), start);
    const long = tasks.map(([, d]) => d);
    // Where they fall: by length, and by tenth of the run from Apply (to tell start, rollout, end).
    const byLength = [50, 100, 200].map((lo, i, a) => long.filter((d) => d >= lo && d < (a[i + 1] ?? Infinity)).length);
    const byTenth = Array.from({ length: 10 }, () => 0);
    for (const [at] of tasks) byTenth[Math.min(9, Math.floor(((at - start) / (end - start)) * 10))] += 1;
    return { seconds: (end - start) / 1000, long: long.length, longest: Math.max(0, ...long), byLength, byTenth };
  } finally {
    await page.close().catch(() => {});
  }
}

const printTables = !pageOnly;
const secs = (v) => (v == null ? 'not reached' : `${v.toFixed(2)} s`);
const rate = (r) => (r?.running_s ? `${Math.round(r.pods / r.running_s)}` : '-');
const perSec = (r) => (r?.running_s ? `${Math.round(r.records / r.running_s)}` : '-');
const mib = (v) => (v == null ? '-' : `${Math.round(v)} MiB`);
if (printTables) {
  console.log('| size | nodes | pods | native: all Running | native pods/s | native records/s | native peak RSS | browser: all Running | browser pods/s | browser records/s | browser wasm memory | browser / native |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const size of sizes) {
    const n = native.get(size);
    const b = browserRuns.get(size);
    const ratio = n?.running_s && b?.running_s ? `${(b.running_s / n.running_s).toFixed(2)}x` : '-';
    const browserCells = b?.error
      ? [`failed: ${b.error}`, '-', '-', '-']
      : [secs(b?.running_s), rate(b), perSec(b), mib(b?.peak_mib)];
    const ref = n ?? b ?? {};
    console.log(
      `| ${size} | ${ref.nodes ?? '-'} | ${ref.pods ?? '-'} | ${n ? secs(n.running_s) : 'not run'} | ${rate(n)} | ${perSec(n)} | ${mib(n?.peak_mib)} | ${browserCells.join(' | ')} | ${ratio} |`,
    );
  }

  const sorted = loads.map((l) => l.interactive).sort((a, b) => a - b);
  console.log('');
  console.log(
    `Cold load (${loads.length} runs, nothing cached): interactive after ${Math.round(sorted[Math.floor(sorted.length / 2)])} ms (median; ` +
      `min ${Math.round(sorted[0])}, max ${Math.round(sorted.at(-1))}), ${loads[0]?.bytes ?? 0} bytes gzipped`,
  );
}

console.log('');
console.log('| size | in the page: Apply to the end (Cluster view) | long tasks (> 50 ms) | longest task |');
console.log('|---|---|---|---|');
for (const size of sizes) {
  const r = pageRuns.get(size);
  console.log(
    r?.error
      ? `| ${size} | failed: ${r.error} | - | - |`
      : `| ${size} | ${r.seconds.toFixed(2)} s | ${r.long} | ${Math.round(r.longest)} ms |`,
  );
}
for (const size of sizes) {
  const r = pageRuns.get(size);
  if (!r?.long) continue;
  const [a, b, c] = r.byLength;
  console.log('');
  console.log(`${size}'s long tasks: ${a} of 50 to 100 ms, ${b} of 100 to 200 ms, ${c} of 200 ms or more; by tenth of the run from Apply: ${r.byTenth.join(', ')}`);
}
