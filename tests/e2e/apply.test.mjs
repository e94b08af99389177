// Apply runs the cluster in the page: the core, compiled to wasm, answers in the Flow view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appErrors, openApp, testIdText, useSite, waitUntil } from './harness.mjs';
import { flowText, waitForEnd } from './playground.mjs';

const site = useSite();

test('Apply runs the default scenario and the Flow shows the request reaching etcd', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await waitUntil(
      () => testIdText(page, 'parse-result'),
      (text) => text?.includes('Deployment/nginx'),
      (text) => `parse-result never listed the Deployment (got ${JSON.stringify(text)})`,
      { problems },
    );
    await page.click('[data-testid="apply"]');
    await waitForEnd(page, problems);
    const flow = await flowText(page, 0);
    assert.match(flow, /POST \/apis\/apps\/v1\/namespaces\/default\/deployments/);
    assert.match(flow, /PUT \/registry\/deployments\/default\/nginx -> revision \d+/);
    assert.match(flow, /RBAC: allowed by ClusterRoleBinding "cluster-admin"/);
    const console = await testIdText(page, 'kubectl');
    assert.match(console, /deployment\.apps\/nginx created/);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});
