// Drafts (issues 7 and 8): the editor's text survives a reload; a share link does not replace a
// different draft without asking; "Reset to example" is explicit; and a panic shows an overlay
// whose reload keeps the draft and does not start the scenario again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { appErrors, editor, openApp, testIdText, useSite, waitUntil } from './harness.mjs';

const site = useSite();

const fragment = (text) => '#scenario=' + deflateRawSync(Buffer.from(text, 'utf8')).toString('base64url');
const MINE = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typed-by-me\n';
const LINKED = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-a-link\n';

const storedDraft = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('kubeplay.draft') ?? 'null'));

async function typeDraft(page, problems, text) {
  await editor(page).fill(text);
  await waitUntil(
    () => storedDraft(page),
    (d) => d?.text === text,
    (d) => `the draft was not saved (${JSON.stringify(d)})`,
    { problems },
  );
}

test('type in the editor, reload: the text and the settings are still there', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await typeDraft(page, problems, MINE);
    await page.click('[data-testid="tab-events"]');
    await page.selectOption('[data-testid="speed"]', '4');
    await waitUntil(() => storedDraft(page), (d) => d?.view === 'events' && d?.speed === 4, (d) => JSON.stringify(d), { problems });
    const draft = await storedDraft(page);
    assert.equal(draft.version, 1);
    await page.reload();
    await editor(page).waitFor();
    assert.equal(await editor(page).inputValue(), MINE);
    assert.equal(await page.getAttribute('[data-testid="tab-events"]', 'aria-selected'), 'true');
    assert.equal(await page.locator('[data-testid="speed"]').inputValue(), '4');
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('a draft the page cannot read is kept aside, untouched, and the example is shown', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    const future = JSON.stringify({ version: 99, text: MINE });
    await page.evaluate((v) => localStorage.setItem('kubeplay.draft', v), future);
    await page.reload();
    await editor(page).waitFor();
    assert.match(await editor(page).inputValue(), /kind: Deployment/);
    assert.equal(await page.evaluate(() => localStorage.getItem('kubeplay.draft.unreadable')), future);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('a share link does not replace a different draft without asking', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await typeDraft(page, problems, MINE);
    const before = await page.evaluate(() => localStorage.getItem('kubeplay.draft'));
    await page.goto('about:blank');
    await page.goto(site.url + fragment(LINKED));
    await page.locator('[data-testid="draft-choice"]').waitFor();
    assert.equal(await editor(page).inputValue(), LINKED);
    // Edits to the link's scenario are not saved while the page asks.
    await editor(page).fill(LINKED + 'data:\n  x: "1"\n');
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => localStorage.getItem('kubeplay.draft')), before);
    // "Open my draft instead" brings it back, and the link leaves the address.
    await page.click('[data-testid="draft-open"]');
    assert.equal(await editor(page).inputValue(), MINE);
    assert.equal(await page.locator('[data-testid="draft-choice"]').count(), 0);
    assert.doesNotMatch(await page.evaluate(() => location.hash), /scenario=/);

    // Again, keeping the link's scenario this time: it becomes the draft.
    await page.goto('about:blank');
    await page.goto(site.url + fragment(LINKED));
    await page.locator('[data-testid="draft-choice"]').waitFor();
    await page.click('[data-testid="draft-keep-link"]');
    await waitUntil(() => storedDraft(page), (d) => d?.text === LINKED, (d) => JSON.stringify(d), { problems });
    await page.reload();
    await editor(page).waitFor();
    assert.equal(await editor(page).inputValue(), LINKED);
    assert.equal(await page.locator('[data-testid="draft-choice"]').count(), 0);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('Reset to example replaces the draft only when pressed', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await typeDraft(page, problems, MINE);
    await page.reload();
    await editor(page).waitFor();
    assert.equal(await editor(page).inputValue(), MINE);
    await page.click('[data-testid="reset-example"]');
    assert.match(await editor(page).inputValue(), /kind: Deployment\nmetadata:\n {2}name: nginx/);
    await waitUntil(() => storedDraft(page), (d) => d?.text.includes('name: nginx'), (d) => JSON.stringify(d), { problems });
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('a panic shows an overlay; its reload keeps the draft and does not start the scenario', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await typeDraft(page, problems, MINE);
    const title = await page.title();
    const thrown = await page
      .evaluate(() => window.wasmBindings.kubeplay_test_panic('test panic: <b id="bold">not markup</b>'))
      .then(() => null, (e) => String(e));
    assert.ok(thrown, 'the test panic did not throw');
    const overlay = page.locator('[data-testid="panic-overlay"]');
    await overlay.waitFor();
    const text = await overlay.innerText();
    assert.match(text, /internal error/);
    assert.match(text, /test panic: <b id="bold">not markup<\/b>/);
    assert.equal(await page.locator('#bold').count(), 0, 'the panic message was rendered as HTML');
    assert.equal(await page.title(), title);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'panic-reload');
    await Promise.all([page.waitForEvent('load'), page.click('[data-testid="panic-reload"]')]);
    await editor(page).waitFor();
    assert.equal(await editor(page).inputValue(), MINE);
    await page.locator('[data-testid="recovered"]').waitFor();
    await page.waitForTimeout(500);
    assert.equal(await page.getAttribute('[data-testid="play-state"]', 'data-state'), 'paused');
    assert.match(await testIdText(page, 'position'), /step 0 of/);
    // The next reload is an ordinary one: the scenario plays again.
    await page.reload();
    await editor(page).waitFor();
    assert.equal(await page.locator('[data-testid="recovered"]').count(), 0);
    const after = problems.filter((p) => !/test panic|unreachable|RuntimeError/.test(p));
    assert.deepEqual(appErrors(after), [], after.join('\n'));
  } finally {
    await context.close();
  }
});
