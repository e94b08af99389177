// Helpers for the playground's end-to-end tests (not a test file itself).
import { testIdText, waitUntil } from './harness.mjs';

/** Waits until playback has ended ("ended" in the play-state indicator). */
export async function waitForEnd(page, problems, timeout = 60_000) {
  return waitUntil(
    () => testIdText(page, 'play-state'),
    (s) => s?.trim() === 'ended',
    (s) => `playback did not end (state ${JSON.stringify(s)}, ${JSON.stringify(null)})`,
    { problems, timeout },
  );
}

/** The text of the Flow's drawn rows after scrolling it to `top` pixels. */
export async function flowText(page, top) {
  await page.locator('.flow-scroll').evaluate((el, t) => {
    el.scrollTop = t;
    el.dispatchEvent(new Event('scroll'));
  }, top);
  await page.waitForTimeout(150);
  return page.locator('[data-testid="flow"] svg').evaluate((el) =>
    [...el.querySelectorAll('g.row')].map((g) => g.querySelector('title')?.textContent ?? '').join('\n'),
  );
}

/** The playback position, as the controls show it: `{ position, total }`. */
export async function position(page) {
  const text = await testIdText(page, 'position');
  const m = /step (\d+) of (\d+)/.exec(text ?? '');
  return m ? { position: Number(m[1]), total: Number(m[2]) } : null;
}

/** Switches the views area to a tab (`cluster`, `etcd`, `scheduler`, `pod`, `events`). */
export async function openTab(page, id) {
  await page.click(`[data-testid="tab-${id}"]`);
  await page.locator(`[data-testid="${id}"]`).waitFor();
}

/** Records long animation frames / long tasks from page load (call before navigation). */
export async function watchLongFrames(context) {
  await context.addInitScript(() => {
    window.__longFrames = [];
    for (const type of ['long-animation-frame', 'longtask']) {
      try {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longFrames.push({ type, duration: e.duration, start: e.startTime });
        }).observe({ type, buffered: true });
      } catch {
        /* not supported */
      }
    }
  });
}
