// Issues 9 and 10: what a cold load transfers (gzip-compressed, reported and kept under a
// budget), the page in English, Simplified and Traditional Chinese, the language switch, and
// the guided tour from its first stop to its last in each language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { appErrors, openApp, testIdText, useSite, waitUntil } from './harness.mjs';

const site = useSite();

/**
 * Issue 9's target for a cold load, compressed, and what this test enforces: the site fits
 * since the locales load on demand, the strict decoders became tables and the sorts compile
 * once (1,038,658 bytes measured on 2026-12-03, about 10 KB under).
 */
const TARGET = 1024 * 1024;

/** Waits until playback has ended, whatever the page's language. */
async function waitForEnded(page, problems) {
  return waitUntil(
    () => page.locator('[data-testid="play-state"]').getAttribute('data-state'),
    (s) => s === 'ended',
    (s) => `playback did not end (state ${s})`,
    { problems, timeout: 60_000 },
  );
}

test('a cold load transfers what it should, gzip-compressed (reported)', async (t) => {
  const { page, context, problems, responses } = await openApp(site, '');
  try {
    await page.waitForLoadState('networkidle');
    await waitForEnded(page, problems);
    const origin = new URL(site.url).origin;
    const rows = [];
    for (const res of responses) {
      if (!res.url().startsWith(origin) || res.status() !== 200) continue;
      const body = await res.body().catch(() => null);
      if (!body) continue;
      rows.push({ file: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    }
    const total = rows.reduce((s, r) => s + r.gzip, 0);
    const raw = rows.reduce((s, r) => s + r.raw, 0);
    for (const r of rows) console.log(`# load: ${r.file} ${r.raw} bytes, ${r.gzip} gzipped`);
    const line = `cold load: ${rows.length} files, ${raw} bytes, ${total} bytes gzipped (target ${TARGET}, ${total <= TARGET ? `${TARGET - total} under` : `${total - TARGET} over`})`;
    console.log(`# ${line}`);
    t.diagnostic(line);
    assert.ok(rows.some((r) => r.file.endsWith('.wasm')), 'the wasm was not loaded');
    assert.ok(total <= TARGET, line);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

const LANGS = {
  'zh-CN': { scheduler: '调度器', node: '节点', cluster: '集群', docs: '文档', notIn: '排程器' },
  'zh-TW': { scheduler: '排程器', node: '節點', cluster: '叢集', docs: '文件', notIn: '调度器' },
};

for (const [lang, words] of Object.entries(LANGS)) {
  test(`lang=${lang} shows the page, its views and explanations in that language`, async () => {
    const { page, context, problems } = await openApp(site, `#lang=${lang}`);
    try {
      await waitForEnded(page, problems);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      assert.equal(await page.locator('[data-testid="language"]').inputValue(), lang);
      assert.equal((await testIdText(page, 'tab-scheduler')).trim(), words.scheduler);
      assert.equal((await testIdText(page, 'tab-cluster')).trim(), words.cluster);
      // The scheduler's table and the explanation of a scheduling decision.
      await page.click('[data-testid="tab-scheduler"]');
      await page.locator('[data-testid="scheduler-table"]').waitFor();
      assert.match(await testIdText(page, 'scheduler-table'), new RegExp(words.node));
      await page.click('[data-testid="tour-start"]');
      for (let i = 0; i < 5; i++) await page.click('[data-testid="tour-next"]');
      const explanation = await testIdText(page, 'explanation');
      assert.match(explanation, new RegExp(words.scheduler), explanation);
      assert.match(explanation, new RegExp(words.docs));
      const all = await page.locator('body').innerText();
      assert.ok(!all.includes(words.notIn), `the page mixes in the other script's ${words.notIn}`);
      // Labels and buttons come from the language's file, not English.
      assert.doesNotMatch(await testIdText(page, 'apply'), /Apply/);
      assert.deepEqual(appErrors(problems), [], problems.join('\n'));
    } finally {
      await context.close();
    }
  });
}

test('the language follows navigator.languages, then the switch, remembered and in the link', async () => {
  const context = await site.browser.newContext({ locale: 'zh-TW', viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(site.url);
    await page.locator('[data-testid="tab-scheduler"]').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-TW');
    assert.equal((await testIdText(page, 'tab-scheduler')).trim(), '排程器');
    await page.selectOption('[data-testid="language"]', 'zh-CN');
    await waitUntil(() => testIdText(page, 'tab-scheduler'), (s) => s?.trim() === '调度器', (s) => `tab ${s}`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.match(await page.evaluate(() => location.hash), /lang=zh-CN/);
    assert.equal(await page.evaluate(() => localStorage.getItem('kubeplay.lang')), 'zh-CN');
    await page.selectOption('[data-testid="language"]', 'en');
    await waitUntil(() => testIdText(page, 'tab-scheduler'), (s) => s?.trim() === 'Scheduler', (s) => `tab ${s}`);
    // Remembered without the fragment.
    await page.goto(site.url + '#');
    await page.reload();
    await page.locator('[data-testid="tab-scheduler"]').waitFor();
    assert.equal((await testIdText(page, 'tab-scheduler')).trim(), 'Scheduler');
  } finally {
    await context.close();
  }
});

const VIEWS = ['flow', 'flow', 'etcd', 'flow', 'flow', 'scheduler', 'flow', 'pod', 'pod', 'cluster'];
const STOPS = ['apply', 'admission', 'etcd', 'deployment', 'replicaset', 'scheduler', 'binding', 'sandbox', 'start', 'ready'];

for (const lang of ['en', 'zh-CN', 'zh-TW']) {
  test(`the guided tour runs from its first stop to its last (${lang})`, async () => {
    const { page, context, problems } = await openApp(site, `#lang=${lang}`);
    try {
      await page.click('[data-testid="tour-start"]');
      const tour = page.locator('[data-testid="tour"]');
      await tour.waitFor();
      const titles = new Set();
      let lastPosition = -1;
      for (const [i, id] of STOPS.entries()) {
        assert.equal(await tour.getAttribute('data-stop'), id);
        assert.match(await testIdText(page, 'tour-progress'), new RegExp(`${i + 1}\\D+${STOPS.length}`));
        const title = (await testIdText(page, 'tour-title')).trim();
        const body = (await testIdText(page, 'tour-body')).trim();
        assert.ok(title.length > 3 && body.length > 40, `stop ${id}: ${title} / ${body}`);
        assert.ok(!title.startsWith('tour-'), `stop ${id} has no text: ${title}`);
        if (lang !== 'en') assert.match(title + body, /[\u4e00-\u9fff]/, `stop ${id} is not in Chinese`);
        titles.add(title);
        // The stop moved the playback forward and selected its record.
        const pos = await page.locator('[data-testid="scrubber"]').inputValue();
        assert.ok(Number(pos) > lastPosition, `stop ${id} did not move forward (${pos})`);
        lastPosition = Number(pos);
        assert.ok((await testIdText(page, 'step-summary'))?.length > 0, `stop ${id} selected nothing`);
        // Its view is shown and outlined.
        assert.equal(await page.evaluate(() => document.body.dataset.tourView), VIEWS[i]);
        assert.ok(await page.locator(`[data-testid="${VIEWS[i]}"]`).isVisible(), `stop ${id}: ${VIEWS[i]} is not shown`);
        if (i + 1 < STOPS.length) await page.click('[data-testid="tour-next"]');
      }
      assert.equal(titles.size, STOPS.length);
      assert.equal(await page.locator('[data-testid="tour-next"]').count(), 0);
      await page.click('[data-testid="tour-back"]');
      assert.equal(await tour.getAttribute('data-stop'), 'start');
      await page.click('[data-testid="tour-close"]');
      assert.equal(await tour.count(), 0);
      assert.deepEqual(appErrors(problems), [], problems.join('\n'));
    } finally {
      await context.close();
    }
  });
}

test('Space plays and pauses, except while typing in the editor', async () => {
  const { page, context, problems } = await openApp(site, '');
  try {
    const state = () => page.locator('[data-testid="play-state"]').getAttribute('data-state');
    await page.click('[data-testid="rewind"]');
    assert.equal(await state(), 'paused');
    await page.locator('body').focus();
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('Space');
    assert.equal(await state(), 'playing');
    await page.keyboard.press('Space');
    assert.equal(await state(), 'paused');
    // In the editor a space is a space.
    const before = await page.locator('[data-testid="yaml-editor"]').first().inputValue().catch(() => null);
    await page.locator('textarea').first().focus();
    await page.keyboard.press('Space');
    assert.equal(await state(), 'paused');
    if (before !== null) assert.notEqual(await page.locator('textarea').first().inputValue(), before);
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});

test('the splitter resizes the editor pane, by keyboard and by dragging', async () => {
  const { page, context, problems } = await openApp(site, '');
  try {
    const splitter = page.locator('[data-testid="pane-splitter"]');
    const width = () => page.locator('.editor-pane').evaluate((el) => el.getBoundingClientRect().width);
    const before = await width();
    await splitter.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    assert.equal(await splitter.getAttribute('aria-valuenow'), '44');
    assert.ok((await width()) > before + 50, `${before} -> ${await width()}`);
    await page.keyboard.press('Home');
    assert.equal(await splitter.getAttribute('aria-valuenow'), '20');
    const box = await splitter.boundingBox();
    await page.mouse.move(box.x + 3, box.y + 100);
    await page.mouse.down();
    await page.mouse.move(640, box.y + 100, { steps: 4 });
    await page.mouse.up();
    assert.equal(await splitter.getAttribute('aria-valuenow'), '50');
    assert.deepEqual(appErrors(problems), [], problems.join('\n'));
  } finally {
    await context.close();
  }
});
