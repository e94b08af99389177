// The scenario editor and the core's reading of it, live in the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appErrors, editor, openApp, testIdText, useSite, waitUntil } from './harness.mjs';

const site = useSite();

// A Pod whose name opens a flow sequence (line 4, column 9) that never closes. The core reports
// where the YAML parser gave up: line 5, column 1 (the end of the text), "did not find expected
// ',' or ']'".
const BROKEN = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: [oops\n';

test('the editor holds the default scenario: a 3-replica Deployment', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    const textarea = editor(page);
    assert.equal(await textarea.evaluate((el) => el.tagName), 'TEXTAREA');
    const value = await waitUntil(
      () => textarea.inputValue(),
      (v) => v.includes('kind: Deployment'),
      (v) => `editor value: ${JSON.stringify(v)}`,
      { problems },
    );
    assert.match(value, /^kind: Deployment$/m);
    assert.match(value, /^\s+replicas: 3$/m);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test("the page shows the core's parse of the default scenario", async () => {
  const { page, context, problems } = await openApp(site);
  try {
    const text = await waitUntil(
      () => testIdText(page, 'parse-result'),
      (t) => Boolean(t?.includes('Deployment/nginx')),
      (t) => `parse-result: ${JSON.stringify(t)}`,
      { problems },
    );
    assert.doesNotMatch(text, /error/i, `parse-result shows an error: ${text}`);
    const alerts = await page.locator('[data-testid="parse-result"] [role="alert"]').count();
    assert.equal(alerts, 0, `parse-result has ${alerts} alert(s): ${text}`);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('a YAML error in the editor is shown with its line number', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await waitUntil(
      () => testIdText(page, 'parse-result'),
      (t) => Boolean(t?.includes('Deployment/nginx')),
      (t) => `parse-result before editing: ${JSON.stringify(t)}`,
      { problems },
    );
    await editor(page).fill(BROKEN);
    const text = await waitUntil(
      () => testIdText(page, 'parse-result'),
      (t) => Boolean(t) && !t.includes('Deployment/nginx') && /line \d+/.test(t),
      (t) => `parse-result after typing broken YAML: ${JSON.stringify(t)}`,
      { problems },
    );
    assert.match(text, /line \d+/);
    assert.match(text, /\bline 5, column 1\b/, `expected the error at line 5, column 1: ${text}`);
    assert.match(text, /did not find expected/, `expected the parser's message: ${text}`);
    assert.doesNotMatch(text, /Deployment\/nginx|Pod\/oops/, `stale objects still listed: ${text}`);

    // Fixing the text brings the objects back.
    await editor(page).fill('apiVersion: v1\nkind: Pod\nmetadata:\n  name: fixed\n');
    await waitUntil(
      () => testIdText(page, 'parse-result'),
      (t) => Boolean(t?.includes('Pod/fixed')) && !/line \d+, column/.test(t),
      (t) => `parse-result after fixing the YAML: ${JSON.stringify(t)}`,
      { problems },
    );
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});
