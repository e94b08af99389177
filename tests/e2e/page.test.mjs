// The page itself: it loads cleanly and has the regions the rest of the tests rely on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appErrors, openApp, testIdText, useSite, waitUntil } from './harness.mjs';

const site = useSite();

test('the page loads with no console errors and no page errors', async () => {
  const { page, context, problems, responses } = await openApp(site);
  try {
    // Let the app settle: the core's parse of the default scenario is on the page.
    await waitUntil(
      () => testIdText(page, 'parse-result'),
      (text) => Boolean(text?.trim()),
      (text) => `parse-result never filled in (got ${JSON.stringify(text)})`,
      { problems },
    );
    await page.waitForLoadState('networkidle');
    const hint = problems.some((p) => p.includes('/favicon.ico'))
      ? '\n(the browser asks for /favicon.ico when index.html declares no <link rel="icon">)'
      : '';
    assert.deepEqual(problems, [], `the page reported problems:\n${problems.join('\n')}${hint}`);

    const failed = responses.filter((r) => r.status() >= 400).map((r) => `${r.status()} ${r.url()}`);
    assert.deepEqual(failed, [], `some requests failed:\n${failed.join('\n')}`);

    // The module must be served as application/wasm, or streaming compilation is refused.
    const wasm = responses.filter((r) => new URL(r.url()).pathname.endsWith('.wasm'));
    assert.ok(wasm.length >= 1, 'the page loaded no .wasm file');
    for (const r of wasm) {
      assert.equal(r.headers()['content-type'], 'application/wasm', `content type of ${r.url()}`);
    }
    assert.equal(await page.title(), 'kubeplay');
  } finally {
    await context.close();
  }
});

test('the apply, flow and timeline regions exist', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    for (const id of ['yaml-editor', 'parse-result', 'apply', 'flow', 'timeline']) {
      const count = await page.locator(`[data-testid="${id}"]`).count();
      assert.equal(count, 1, `expected exactly one [data-testid="${id}"], found ${count}`);
    }
    const apply = page.locator('[data-testid="apply"]');
    assert.ok(await apply.isVisible(), 'the Apply control is not visible');
    assert.match(await apply.innerText(), /apply/i);
    assert.ok(await page.locator('[data-testid="flow"]').isVisible(), 'the Flow view is not visible');
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});
