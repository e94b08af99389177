// Share links (issue 7): a link printed by `kubeplay share` opens its scenario and plays it;
// `t=` and `view=` land on that position and view; the Share button writes the link of the
// position shown and warns when it is too long; a broken or hostile link says what is wrong,
// keeps the page usable and leaves the saved draft alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { appErrors, editor, kubeplay, openApp, testIdText, useSite, waitUntil } from './harness.mjs';
import { waitForEnd } from './playground.mjs';

const site = useSite();

const CHECKOUT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: checkout
spec:
  replicas: 2
  selector:
    matchLabels: {app: checkout}
  template:
    metadata:
      labels: {app: checkout}
    spec:
      containers:
      - name: web
        image: nginx:1.27
`;

/** `kubeplay share FILE --base URL`, as a user runs it. */
function kubeplayShare(text, base) {
  return kubeplay(['share', 'checkout.yaml', '--base', base], { 'checkout.yaml': text }).trim();
}

let shared;
function checkoutLink() {
  shared ??= kubeplayShare(CHECKOUT, site.url);
  return shared;
}

test('a link made by kubeplay share opens its scenario, plays it and shows its pods', async () => {
  const link = checkoutLink();
  assert.ok(link.startsWith(`${site.url}#scenario=`), link);
  assert.ok(link.length < 2000, `${link.length} characters`);
  const { page, context, problems } = await openApp(site, link);
  try {
    assert.equal(await editor(page).inputValue(), CHECKOUT);
    await waitForEnd(page, problems);
    const pods = page.locator('[data-testid="cluster"] button.pod');
    assert.equal(await pods.count(), 2);
    for (const pod of await pods.all()) {
      assert.match(await pod.getAttribute('data-pod'), /^default\/checkout-[a-z0-9]+-[a-z0-9]{5}$/);
      assert.equal(await pod.getAttribute('data-status'), 'Running');
    }
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('t= and view= land on that position and view, paused', async () => {
  const { page, context, problems } = await openApp(site, `${checkoutLink()}&view=events&t=1500`);
  try {
    await waitUntil(
      () => testIdText(page, 'clock'),
      (c) => c?.trim() === 't=00:01.500',
      (c) => `clock ${c}`,
      { problems },
    );
    assert.equal(await page.getAttribute('[data-testid="play-state"]', 'data-state'), 'paused');
    assert.equal(await page.getAttribute('[data-testid="tab-events"]', 'aria-selected'), 'true');
    const events = await testIdText(page, 'events');
    assert.match(events, /ScalingReplicaSet/);
    // Nothing after 1.5 s is shown yet: the containers have not started.
    assert.doesNotMatch(events, /Started/);
    // The Share button writes this position and view back.
    await page.click('[data-testid="share"]');
    const written = await page.locator('[data-testid="share-link"]').inputValue();
    assert.match(written, /&view=events&t=1500&lang=en$/);
    assert.equal(written.split('#')[1].split('&')[0], checkoutLink().split('#')[1]);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('the Share button warns when the link is longer than 8,000 characters', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await page.click('[data-testid="share"]');
    assert.equal(await page.locator('[data-testid="share-warning"]').count(), 0);
    await page.click('[data-testid="share"]');
    // Text that does not compress: random-looking ConfigMap data.
    let data = '';
    let x = 12345;
    for (let i = 0; i < 14000; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      data += 'abcdefghijklmnopqrstuvwxyz0123456789'[x % 36];
    }
    await editor(page).fill(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  blob: ${data}\n`);
    await page.click('[data-testid="share"]');
    const warning = await waitUntil(
      () => testIdText(page, 'share-warning'),
      Boolean,
      () => 'no share-warning',
      { problems },
    );
    assert.match(warning, /characters long/);
    assert.match(warning, /8000/);
    assert.ok((await page.locator('[data-testid="share-link"]').inputValue()).length > 8000);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

const encode = (bytes) => deflateRawSync(bytes).toString('base64url');
const DRAFT = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: my-draft\ndata:\n  kept: "yes"\n';

const HOSTILE = [
  ['bad base64', '#scenario=@@@!', /not valid base64url/],
  ['bad DEFLATE', '#scenario=AAAA', /not valid DEFLATE/],
  ['a decompression bomb', `#scenario=${encode(Buffer.alloc(8 * 1024 * 1024, 'a'))}`, /larger than 1048576 bytes/],
  ['text that is not a scenario', `#scenario=${encode(Buffer.from('just: [words'))}`, /not a scenario/],
  ['an unknown view', `#scenario=${encode(Buffer.from(CHECKOUT))}&view=nope`, /unknown view "nope"/],
];

test('each hostile link is explained, the page stays usable and the saved draft is unchanged', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await editor(page).fill(DRAFT);
    const stored = await waitUntil(
      () => page.evaluate(() => localStorage.getItem('kubeplay.draft')),
      (s) => s?.includes('my-draft'),
      (s) => `draft not saved: ${s}`,
      { problems },
    );
    for (const [what, hash, message] of HOSTILE) {
      await page.goto('about:blank');
      await page.goto(site.url + hash);
      const shown = await waitUntil(
        () => testIdText(page, 'link-error'),
        Boolean,
        () => `${what}: no link-error`,
        { problems },
      );
      assert.match(shown, message, what);
      assert.equal(await editor(page).inputValue(), DRAFT, `${what}: the editor does not show the draft`);
      assert.equal(await page.evaluate(() => localStorage.getItem('kubeplay.draft')), stored, `${what}: the draft changed`);
      // Usable: the draft applies and runs to its end.
      await page.click('[data-testid="apply"]');
      await waitForEnd(page, problems);
      assert.match(await testIdText(page, 'parse-result'), /ConfigMap\/my-draft/, what);
    }
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});
