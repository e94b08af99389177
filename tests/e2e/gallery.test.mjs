// Each gallery scenario (public/scenarios/index.json) loads from the menu and plays to its end
// without a console error: one test per scenario.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appErrors, editor, openApp, useSite, waitUntil } from './harness.mjs';
import { position, waitForEnd } from './playground.mjs';

const site = useSite();
const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public', 'scenarios');
const { scenarios } = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));

for (const s of scenarios) {
  test(`gallery: ${s.id} loads and plays to its end`, async () => {
    const { page, context, problems } = await openApp(site);
    try {
      const text = readFileSync(join(dir, s.file), 'utf8');
      await page.locator(`[data-testid="gallery"] option[value="${s.id}"]`).waitFor({ state: 'attached' });
      await page.selectOption('[data-testid="gallery"]', s.id);
      await waitUntil(
        () => editor(page).inputValue(),
        (v) => v === text,
        (v) => `the editor never held ${s.file} (got ${JSON.stringify(v.slice(0, 80))})`,
        { problems },
      );
      // Long scenarios (crash loops run 10 virtual minutes) are run to the end at once.
      const toEnd = page.locator('[data-testid="to-end"]');
      if (await toEnd.isEnabled()) await toEnd.click();
      await waitForEnd(page, problems, 90_000);
      const pos = await position(page);
      assert.ok(pos.total > 0 && pos.position === pos.total, JSON.stringify(pos));
      assert.deepEqual(appErrors(problems), [], problems.join('\n'));
    } finally {
      await context.close();
    }
  });
}
