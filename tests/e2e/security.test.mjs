// The page cannot be scripted by what it is given: a Content-Security-Policy allows only its
// own scripts and wasm (no inline script but Trunk's pinned loader, no eval), and text from a
// scenario (annotations, names in kubectl output) is shown as text, never run as HTML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { appErrors, openApp, testIdText, useSite, waitUntil } from './harness.mjs';
import { openTab, waitForEnd } from './playground.mjs';

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

// Issue 8's case: an annotation that would change the title if it ran, and a label holding a
// <script> (which the apiserver refuses, quoting it): both are shown as text wherever they
// appear, in every view, and the title never changes.
test('an onerror annotation and a <script> label appear as text in every view; the title never changes', async () => {
  const annotation = `<img src=x onerror="document.title='pwned'">`;
  const label = `<script>document.title='pwned'</script>`;
  const scenario = [
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: hostile\n  annotations:\n' +
      `    note: |-\n      ${annotation}\nspec:\n  containers: [{name: web, image: "nginx:1.27"}]\n`,
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: labelled\n  labels:\n' +
      `    app: "${label}"\nspec:\n  containers: [{name: web, image: "nginx:1.27"}]\n`,
  ].join('---\n');
  const { page, context, problems } = await openApp(site, fragment(scenario));
  const noMarkupRan = async (where) => {
    assert.equal(await page.title(), 'kubeplay', `${where}: the title changed`);
    assert.equal(await page.locator('img[src="x"]').count(), 0, `${where}: an <img> from the scenario was created`);
    const scripts = await page.evaluate(() => [...document.scripts].filter((s) => s.textContent.includes('pwned')).length);
    assert.equal(scripts, 0, `${where}: a <script> from the scenario was created`);
  };
  try {
    // Every title the page ever has from here on (the views render the objects later).
    await page.evaluate(() => {
      window.__titles = [];
      new MutationObserver(() => window.__titles.push(document.title)).observe(document.head, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await waitForEnd(page, problems);
    // The refused label: the apiserver's message quotes it, as text, in the console and the editor.
    const console = await testIdText(page, 'kubectl');
    assert.ok(console.includes(label), `the refusal does not quote the label: ${console}`);
    assert.match(console, /Invalid value/);
    assert.ok((await testIdText(page, 'editor-error'))?.includes(label) ?? false, 'the editor does not show the refusal');
    await noMarkupRan('console and editor');
    // Cluster: the pod card; then the pod selected everywhere.
    await page.click('[data-testid="cluster"] button.pod[data-pod="default/hostile"]');
    await noMarkupRan('cluster');
    for (const tab of ['scheduler', 'pod', 'events']) {
      await openTab(page, tab);
      await noMarkupRan(tab);
    }
    // etcd: the pod's value shows the annotation as written.
    await openTab(page, 'etcd');
    const key = page.locator('[data-testid="etcd"] button[data-key="/registry/pods/default/hostile"]');
    // Selecting the pod opened its group already; open it otherwise.
    if ((await key.count()) === 0) await page.click('[data-testid="etcd"] button[data-group="pods"]');
    await key.click();
    const value = await testIdText(page, 'etcd-value');
    assert.ok(value.includes(annotation), value);
    await noMarkupRan('etcd');
    // kubectl describe and -o yaml print it too.
    const input = page.locator('[data-testid="kubectl-input"]');
    for (const command of ['describe pod hostile', 'get pod hostile -o yaml']) {
      await input.fill(command);
      await input.press('Enter');
      await waitUntil(
        () => testIdText(page, 'kubectl'),
        (t) => (t ?? '').split(`$ kubectl ${command}`).at(-1).includes(annotation),
        (t) => `${command}: ${JSON.stringify(t?.slice(-400))}`,
        { problems },
      );
      await noMarkupRan(command);
    }
    // The Flow and a step's details.
    await page.locator('[data-testid="flow"] g.row').first().click();
    await noMarkupRan('flow');
    assert.deepEqual(await page.evaluate(() => window.__titles.filter((t) => t !== 'kubeplay')), [], 'the title changed');
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});
