// End-to-end: the page Trunk built (dist/) renders the playground with no error.
// Run by `cargo xtask test` (step e2e), which sets the RATELAB_* variables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { artifacts, open, useDist } from './helpers.mjs';

const site = useDist();

test('the built page opens on the first lesson, playing, the setup folded', async (t) => {
  const page = await open(t, site.browser, site.base);
  await page.locator('h1', { hasText: 'ratelab' }).waitFor();
  assert.equal(await page.title(), 'ratelab · a rate-limiting playground');
  await page.locator('article.lane').first().waitFor();
  assert.deepEqual(
    await page.locator('article.lane').evaluateAll((a) => a.map((x) => x.dataset.algorithm)),
    ['fixed_window', 'sliding_log', 'token_bucket'],
  );
  // Something that moves and says what to watch: the edge burst plays to its moment.
  await page.locator('article.lesson[data-lesson="edge"][data-step="0"] .watch').waitFor();
  await page.waitForFunction(() => document.querySelector('output.now')?.textContent !== '0 s');
  assert.equal(await page.locator('details.setup-fold').evaluate((d) => d.open), false);
  assert.equal(await page.locator('select[name="scenario"]').isVisible(), false);
  // The first lane is on screen with the step's texts: at least 150 px of it in
  // the 900 px window.
  const laneTop = await page.locator('article.lane').first().evaluate((l) => l.getBoundingClientRect().top);
  assert.ok(laneTop < 900 - 150, `the first lane starts at y=${laneTop}`);
  await page.locator('details.setup-fold > summary').click();
  await page.locator('select[name="scenario"]').waitFor();
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'playground.png'), fullPage: true });
});

test('in Vietnamese the document is Vietnamese: <html lang> and the title', async (t) => {
  const page = await open(t, site.browser, `${site.base}?lang=vi`);
  await page.locator('article.lane').first().waitFor();
  await page.waitForFunction(() => document.documentElement.lang === 'vi');
  assert.equal(await page.title(), 'ratelab · sân chơi về giới hạn tần suất');
  // And back, as the switch changes it.
  await page.locator('.masthead select').selectOption('en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await page.title(), 'ratelab · a rate-limiting playground');
});

test('"copy link" copies the address of the view as it is now', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=lab-c`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.base });
  await page.locator('article.lane').first().waitFor();
  const button = page.locator('button.copy-link');
  assert.match(await page.locator('.share .hint').textContent(), /share it/);
  await button.click();
  await button.filter({ hasText: 'Link copied' }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(copied.startsWith(site.base + '?') && copied.includes('scenario=lab-c'), copied);
  // The copied link opens the same view.
  await page.goto(copied);
  await page.locator('article.lane').first().waitFor();
  assert.deepEqual(
    await page.locator('article.lane').evaluateAll((a) => a.map((x) => x.dataset.algorithm)),
    ['token_bucket', 'token_bucket', 'gcra', 'leaky_queue', 'nginx'],
  );
});

test('keys step the clock; the URL follows', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=golden`);
  const now = page.locator('output.now');
  await now.filter({ hasText: '0 s' }).waitFor();
  await page.keyboard.press('ArrowRight');
  await now.filter({ hasText: '2 s' }).waitFor();
  await page.keyboard.press('ArrowRight');
  await now.filter({ hasText: '7 s' }).waitFor();
  await page.waitForFunction(() => location.search.includes('t=7s'));
  await page.keyboard.press('ArrowLeft');
  await now.filter({ hasText: '2 s' }).waitFor();
});

test('play runs the clock and space pauses it', async (t) => {
  const page = await open(t, site.browser, `${site.base}?speed=16`);
  await page.locator('article.lane').first().waitFor();
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('output.now')?.textContent !== '0 s');
  await page.keyboard.press(' ');
  const a = await page.locator('output.now').textContent();
  await page.waitForTimeout(300);
  assert.equal(await page.locator('output.now').textContent(), a);
});

test('usable at phone width: lanes stack, tables scroll', async (t) => {
  const page = await open(t, site.browser, `${site.base}?t=11.2s`, { width: 390, height: 844 });
  await page.locator('article.lane').first().waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'phone.png'), fullPage: true });
});
