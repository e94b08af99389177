// The page cannot be scripted by what it is given: a Content-Security-Policy allows only its
// own scripts and wasm (no inline script but Trunk's pinned loader, no eval), and text from a
// scenario (annotations, names in kubectl output) is shown as text, never run as HTML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { appErrors, openApp, testIdText, useSite, waitUntil } from './harness.mjs';
import { waitForEnd } from './playground.mjs';

const site = useSite();

const fragment = (text) => '#scenario=' + deflateRawSync(Buffer.from(text, 'utf8')).toString('base64url');

test('the Content-Security-Policy allows only the page own scripts and no eval', async () => {
  const { page, context } = await openApp(site);
  try {
    const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    assert.ok(csp, 'no Content-Security-Policy meta element');
    const script = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
    assert.ok(script, csp);
    assert.doesNotMatch(script, /'unsafe-inline'|'unsafe-eval'|\*|https?:/, script);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /object-src 'none'/);
    // An inline script added to the page does not run, and the browser reports the policy
    // violation. (eval itself cannot be tried from here: the test driver's own evaluation is
    // exempt from the page's policy; the policy has no 'unsafe-eval', checked above.)
    const outcome = await page.evaluate(
      () =>
        new Promise((done) => {
          window.__injected = false;
          let violated = '';
          document.addEventListener('securitypolicyviolation', (e) => {
            violated = e.violatedDirective;
          });
          const s = document.createElement('script');
          s.textContent = 'window.__injected = true; eval("1")';
          document.body.appendChild(s);
          setTimeout(() => done({ ran: window.__injected, violated }), 300);
        }),
    );
    assert.equal(outcome.ran, false, 'an injected inline script ran');
    assert.match(outcome.violated, /^script-src/);
  } finally {
    await context.close();
  }
});

test('markup in a scenario is shown as text and never runs', async () => {
  const payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
  const scenario =
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hostile\n  annotations:\n' +
    `    note: '${payload}'\ndata:\n  html: '<b onmouseover="window.__pwned=3">bold</b>'\n`;
  const { page, context, problems } = await openApp(site, fragment(scenario));
  try {
    await waitForEnd(page, problems);
    const input = page.locator('[data-testid="kubectl-input"]');
    await input.fill('get configmap hostile -o yaml');
    await input.press('Enter');
    const out = await waitUntil(
      () => testIdText(page, 'kubectl'),
      (t) => (t ?? '').includes('onerror='),
      (t) => `console: ${JSON.stringify(t)}`,
      { problems },
    );
    assert.ok(out.includes(payload), out);
    assert.equal(await page.evaluate(() => window.__pwned ?? null), null, 'the markup ran');
    assert.equal(await page.locator('img[src="x"]').count(), 0, 'an <img> from the scenario was created');
    assert.equal(await page.locator('b[onmouseover]').count(), 0);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});
