// Embedding and hosting (issue 7): embed=1 is a compact player of the chosen view with no
// editor unless editor=1, with "Open in kubeplay"; the Embed button's snippet; the example
// page's two players and the heights they post; the exports; and the site served under a
// sub-path, making no request outside its origin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { appErrors, distRoot, editor, kubeplay, openApp, useSite, waitUntil } from './harness.mjs';
import { startServer } from './server.mjs';
import { waitForEnd } from './playground.mjs';

const site = useSite();
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fragment = (text) => 'scenario=' + deflateRawSync(Buffer.from(text, 'utf8')).toString('base64url');
const DEFAULT = readFileSync(join(repo, 'public', 'scenarios', 'default.yaml'), 'utf8');
const PLAYER = { ready: '[data-testid="embed-player"]' };

test('embed=1 shows the chosen view and the playback controls, not the editor', async () => {
  const { page, context, problems } = await openApp(site, `#${fragment(DEFAULT)}&embed=1&view=cluster`, PLAYER);
  try {
    await waitForEnd(page, problems);
    assert.equal(await page.locator('[data-testid="yaml-editor"]').count(), 0);
    assert.equal(await page.locator('[data-testid="kubectl"]').count(), 0);
    assert.equal(await page.locator('[data-testid="flow"]').count(), 0);
    assert.equal(await page.locator('[data-testid="cluster"] button.pod[data-status="Running"]').count(), 3);
    for (const id of ['play', 'step', 'rewind', 'clock', 'timeline']) {
      assert.equal(await page.locator(`[data-testid="${id}"]`).count(), 1, id);
    }
    // The player fills its frame's width.
    const width = await page.locator('[data-testid="embed-player"]').evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(width >= 1270, `player ${width}px wide in a 1280px page`);
    // "Open in kubeplay": the full page, same scenario, no embed.
    const href = await page.getAttribute('[data-testid="open-in-kubeplay"]', 'href');
    assert.equal(await page.getAttribute('[data-testid="open-in-kubeplay"]', 'target'), '_blank');
    assert.ok(href.startsWith(site.url + '#scenario='), href);
    assert.match(href, /&view=cluster&t=\d+&lang=en$/);
    assert.doesNotMatch(href, /embed=1/);
    // The embed saved no draft.
    assert.equal(await page.evaluate(() => localStorage.getItem('kubeplay.draft')), null);
    const full = await context.newPage();
    await full.goto(href);
    await editor(full).waitFor();
    assert.equal(await editor(full).inputValue(), DEFAULT);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('embed=1&editor=1 adds the editor; the Flow is the default view', async () => {
  const { page, context, problems } = await openApp(site, `#${fragment(DEFAULT)}&embed=1&editor=1`, PLAYER);
  try {
    assert.equal(await page.getAttribute('[data-testid="embed-player"]', 'data-view'), 'flow');
    assert.equal(await page.locator('[data-testid="flow"]').count(), 1);
    assert.equal(await editor(page).inputValue(), DEFAULT);
    await editor(page).fill('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: edited-in-embed\n');
    await page.click('[data-testid="apply"]');
    await waitForEnd(page, problems);
    assert.equal(await page.evaluate(() => localStorage.getItem('kubeplay.draft')), null);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('the Embed button gives an iframe snippet of the compact player', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await page.click('[data-testid="embed"]');
    await page.selectOption('[data-testid="embed-view"]', 'events');
    const snippet = await page.locator('[data-testid="embed-snippet"]').inputValue();
    const m = /^<iframe src="([^"]+)" width="100%" height="(\d+)" style="border:0" loading="lazy" title="kubeplay: Deployment\/nginx"><\/iframe>$/.exec(snippet);
    assert.ok(m, snippet);
    assert.ok(Number(m[2]) >= 400);
    const src = m[1].replaceAll('&amp;', '&');
    assert.ok(src.startsWith(site.url + '#scenario='), src);
    assert.match(src, /&view=events&embed=1&lang=en$/);
    // The snippet works: the player it names shows the Events.
    const player = await context.newPage();
    await player.goto(src);
    await player.locator('[data-testid="embed-player"][data-view="events"] [data-testid="events"]').waitFor();
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('the example page shows two working players and receives their heights', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const problems = [];
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
    await page.goto(new URL('embed-example.html', site.url).href);
    const frames = ['player-deployment', 'player-pending'];
    for (const id of frames) {
      const frame = page.frameLocator(`iframe[data-testid="${id}"]`);
      await frame.locator('[data-testid="embed-player"]').waitFor();
    }
    // The Deployment player plays to its end and draws the Flow.
    const deployment = page.frameLocator('iframe[data-testid="player-deployment"]');
    await waitUntil(
      () => deployment.locator('[data-testid="play-state"]').getAttribute('data-state'),
      (s) => s === 'ended',
      (s) => `deployment player state ${s}`,
      { problems, timeout: 60_000 },
    );
    assert.ok((await deployment.locator('[data-testid="flow"] g.row').count()) > 0);
    // The pending player's Events say why its pod is Pending.
    const pending = page.frameLocator('iframe[data-testid="player-pending"]');
    await waitUntil(
      () => pending.locator('[data-testid="events"]').innerText().catch(() => ''),
      (t) => /FailedScheduling/.test(t),
      (t) => `pending player events: ${t}`,
      { problems, timeout: 60_000 },
    );
    // Each frame was sized from the height its player posted.
    for (const id of frames) {
      const iframe = page.locator(`iframe[data-testid="${id}"]`);
      const reported = await waitUntil(
        () => iframe.getAttribute('data-reported-height'),
        Boolean,
        () => `${id}: no height message arrived`,
        { problems },
      );
      const inner = await page
        .frameLocator(`iframe[data-testid="${id}"]`)
        .locator('.embed-content')
        .evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
      assert.ok(Math.abs(Number(reported) - Math.max(200, inner)) <= 2, `${id}: reported ${reported}, content ${inner}`);
      assert.equal(await iframe.evaluate((el) => el.style.height), `${reported}px`);
    }
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('exports: the scenario YAML, the trace as kubeplay run --trace json prints it, the manifests', async () => {
  const { page, context, problems } = await openApp(site);
  try {
    await page.click('[data-testid="export"] summary');
    const [yaml] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-yaml"]')]);
    assert.equal(yaml.suggestedFilename(), 'scenario.yaml');
    assert.equal(readFileSync(await yaml.path(), 'utf8'), DEFAULT);
    const [trace] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-trace"]')]);
    assert.equal(trace.suggestedFilename(), 'trace.jsonl');
    const jsonl = readFileSync(await trace.path(), 'utf8');
    // Byte for byte what the command line prints for the same file.
    const native = kubeplay(['run', 'scenario.yaml', '--trace', 'json'], { 'scenario.yaml': DEFAULT });
    const records = native.split('\n').filter((l) => l.startsWith('{')).join('\n') + '\n';
    assert.ok(records.length > 1000);
    assert.equal(jsonl, records);
    assert.equal(JSON.parse(jsonl.split('\n')[0]).component, 'kubectl');
    await page.click('[data-testid="export-manifests"]');
    const manifests = await page.locator('[data-testid="manifests"]').inputValue();
    assert.match(manifests, /^# Run these on a real cluster/);
    assert.match(manifests, /^# {3}kind create cluster/m);
    assert.match(manifests, /^# {3}kubectl apply -f manifests\.yaml$/m);
    assert.ok(manifests.includes(DEFAULT.trim()), manifests);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('the site served under a sub-path works and requests nothing outside its origin', async () => {
  const server = await startServer({ root: distRoot(), prefix: '/kubeplay/' });
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    assert.ok(server.url.endsWith('/kubeplay/'));
    const page = await context.newPage();
    const requests = [];
    const problems = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
    await page.goto(server.url);
    await waitForEnd(page, problems);
    assert.equal(await page.locator('[data-testid="cluster"] button.pod[data-status="Running"]').count(), 3);
    // The gallery (fetched relative to the page) loads under the prefix too.
    await waitUntil(() => page.locator('[data-testid="gallery"] option').count(), (n) => n > 5, (n) => `${n} gallery entries`, { problems });
    await page.selectOption('[data-testid="gallery"]', 'scale-down');
    await waitUntil(() => editor(page).inputValue(), (t) => /replicas: 5/.test(t), () => 'the gallery scenario did not load', { problems });
    await page.waitForLoadState('networkidle');
    const origin = new URL(server.url).origin;
    const outside = requests.filter((u) => !u.startsWith(origin + '/kubeplay/') && !/^(data|blob):/.test(u));
    assert.deepEqual(outside, [], `requests outside ${origin}/kubeplay/`);
    assert.ok(requests.some((u) => u.endsWith('.wasm')));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await server.close();
  }
});
