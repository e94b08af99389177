// Apply runs the cluster in the page: the core, compiled to wasm, answers in the Flow view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appErrors, openApp, testIdText, useSite, waitUntil } from './harness.mjs';

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
    const flow = await waitUntil(
      () => testIdText(page, 'flow'),
      (text) => text?.includes('POST /apis/apps/v1/namespaces/default/deployments'),
      (text) => `the Flow never showed the POST (got ${JSON.stringify(text?.slice(0, 300))})`,
      { problems },
    );
    assert.match(flow, /PUT \/registry\/deployments\/default\/nginx -> revision \d+/);
    assert.match(flow, /RBAC: allowed by ClusterRoleBinding "cluster-admin"/);
    assert.equal((await testIdText(page, 'kubectl')).trim(), 'deployment.apps/nginx created');
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});
