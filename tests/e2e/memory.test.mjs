// Issue 9: a run that grows the tab's WebAssembly memory to the ceiling (3.5 GiB of wasm32's
// 4 GiB) pauses and says why, instead of stopping the page's wasm when an allocation fails. The
// test hook lowers the ceiling to a little above the page's memory, so the medium benchmark
// scenario reaches it in seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appErrors, editor, openApp, testIdText, useSite, waitUntil } from './harness.mjs';
import { waitForEnd } from './playground.mjs';

const site = useSite();
const playState = (page) => page.getAttribute('[data-testid="play-state"]', 'data-state');

test('a run that fills the memory up to the ceiling pauses, says why, and keeps the text', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await waitForEnd(page, problems);
    const text = await page.evaluate(() => window.wasmBindings.kubeplay_benchmark_scenario('medium'));
    await page.evaluate(() => window.wasmBindings.kubeplay_test_memory_headroom(32 * 1024 * 1024));
    // Pasted: one input event (see bench.mjs).
    await editor(page).evaluate((el, t) => {
      el.value = t;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, text);
    await page.locator('[data-testid="apply"]:not([disabled])').waitFor();
    await page.click('[data-testid="apply"]');
    await page.click('[data-testid="to-end"]');
    await waitUntil(() => playState(page), (s) => s === 'memory-full', (s) => `play state ${s}`, {
      problems,
      timeout: 60_000,
    });
    assert.match(await testIdText(page, 'play-state'), /memory is nearly full \(WebAssembly stops at 4 GiB\)/);
    assert.equal(await editor(page).inputValue(), text);
    // Asked to, it goes on (and pauses again at the next growth).
    const before = await testIdText(page, 'position');
    await page.click('[data-testid="play"]');
    await waitUntil(() => testIdText(page, 'position'), (p) => p !== before, (p) => `still at ${p}`, { problems });
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});
