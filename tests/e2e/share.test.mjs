// A share link opens its scenario; a broken one says what is wrong and shows the default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { appErrors, editor, openApp, testIdText, useSite, waitUntil } from './harness.mjs';

const site = useSite();

const fragment = (text) => '#scenario=' + deflateRawSync(Buffer.from(text, 'utf8')).toString('base64url');

test('a share link opens the scenario it carries', async () => {
  const scenario = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n';
  const { page, context, problems } = await openApp(site, fragment(scenario));
  try {
    await waitUntil(
      () => testIdText(page, 'parse-result'),
      (text) => text?.includes('ConfigMap/shared'),
      (text) => `parse-result never listed the shared ConfigMap (got ${JSON.stringify(text)})`,
      { problems },
    );
    assert.equal(await editor(page).inputValue(), scenario);
    assert.equal(await page.locator('[data-testid="link-error"]').count(), 0);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('a broken share link is explained and the default scenario is shown', async () => {
  const { page, context, problems } = await openApp(site, '#scenario=AAAA');
  try {
    const message = await waitUntil(
      () => testIdText(page, 'link-error'),
      (text) => Boolean(text),
      () => 'no link-error message',
      { problems },
    );
    assert.match(message, /not valid DEFLATE/);
    assert.match(await editor(page).inputValue(), /kind: Deployment/);
  } finally {
    await context.close();
  }
});
