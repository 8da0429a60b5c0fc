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
  // (Leaving once the lessons' texts are in: a navigation cancels a fetch on its way.)
  await page.locator('.lessons .groups button').first().waitFor();
  // The copied link opens the same view.
  await page.goto(copied);
  await page.locator('article.lane').first().waitFor();
  assert.deepEqual(
    await page.locator('article.lane').evaluateAll((a) => a.map((x) => x.dataset.algorithm)),
    ['token_bucket', 'token_bucket', 'gcra', 'leaky_queue', 'nginx'],
  );
});

test('a copied link reopens what was seen: the zoom, the folds, the part at the top', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=lab-c&t=1s`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.base });
  await page.locator('article.lane').first().waitFor();
  await page.locator('.lessons .groups button').first().waitFor();
  // Outside a lesson both folds open; the reader folds them and zooms in twice.
  assert.equal(await page.locator('details.setup-fold').evaluate((d) => d.open), true);
  await page.locator('details.setup-fold > summary').click();
  await page.locator('details.catalog > summary').click();
  await page.locator('button.zoom-in').click();
  await page.locator('button.zoom-in').click();
  await page.locator('output.zoom-level', { hasText: '4×' }).waitFor();
  // The third lane at the top of the window, under the clock bar.
  await page.locator('article.lane[data-lane="2"]').evaluate((l) => {
    const bar = document.querySelector('.controls').getBoundingClientRect().height;
    window.scrollTo(0, window.scrollY + l.getBoundingClientRect().top - bar - 2);
  });
  // The clock bar's link button stays in view there (the masthead's is at the top).
  const button = page.locator('button.link-here');
  await button.click();
  await page.locator('button.link-here.copied').waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /&zoom=4&setup=folded&catalog=folded#lane-2$/);
  // The address bar follows the view too (without the fragment, which only a copy names).
  await page.waitForFunction(() => location.search.endsWith('&zoom=4&setup=folded&catalog=folded'));
  // In a new context (a new visitor), the link opens the same view.
  const there = await open(t, site.browser, copied, { height: 800 });
  await there.locator('article.lane[data-lane="2"]').waitFor();
  await there.locator('output.zoom-level', { hasText: '4×' }).waitFor();
  await there.locator('.lessons .groups button').first().waitFor({ state: 'attached' });
  assert.equal(await there.locator('details.setup-fold').evaluate((d) => d.open), false);
  assert.equal(await there.locator('details.catalog').evaluate((d) => d.open), false);
  await there.waitForFunction(() => {
    const lane = document.querySelector('article.lane[data-lane="2"]').getBoundingClientRect();
    const bar = document.querySelector('.controls').getBoundingClientRect();
    return lane.top >= bar.bottom - 1 && lane.top <= bar.bottom + 40;
  });
});

test('the address follows a lesson step as soon as it opens, while it plays to its moment', async (t) => {
  const page = await open(t, site.browser, `${site.base}?lesson=golden&step=2`);
  await page.locator('article.lesson[data-lesson="golden"][data-step="1"] button.next').waitFor();
  await page.locator('article.lesson[data-lesson="golden"][data-step="1"] button.next').click();
  await page.locator('article.lesson[data-lesson="golden"][data-step="2"]').waitFor();
  // Written while the clock still plays to the step's moment (it used to wait
  // for the clock to stop: a moving clock does not count as a change).
  const playing = await page.waitForFunction(() =>
    location.search.includes('step=3') ? document.querySelector('button.play').getAttribute('aria-pressed') : null,
  );
  assert.equal(await playing.jsonValue(), 'true');
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

test('while the clock plays fast, text panels follow in steps; standing, exactly', async (t) => {
  // A clock of our own (Date, timers and animation frames advance only when told):
  // what changes is counted in frames, not timed.
  const page = await open(t, site.browser, 'about:blank');
  await page.clock.install();
  await page.goto(`${site.base}?scenario=lab-b&speed=16&lang=en`);
  await page.locator('article.lane').first().waitFor();
  // Stopped a second on (the new run's steps, then the panels, are drawn by then).
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  const now = page.locator('output.now');
  const which = page.locator('.trace .which');
  const gauge = page.locator('article.lane .gauge-text').first();
  const [now0, which0, gauge0] = [await now.textContent(), await which.textContent(), await gauge.textContent()];
  await page.locator('button.play').click();
  // Six frames, 1.6 s of virtual time at 16x: five requests of lab B arrive (one
  // every 300 ms), the clock and the marks move every frame, the text panels not yet.
  let clock = now0;
  for (let i = 0; i < 6; i++) {
    await page.clock.runFor(17);
    const c = await now.textContent();
    assert.notEqual(c, clock, `frame ${i}: the clock did not move`);
    clock = c;
  }
  assert.equal(await which.textContent(), which0, 'the trace was rewritten within a quarter second');
  assert.equal(await gauge.textContent(), gauge0, 'the gauge was rewritten within a quarter second');
  // A quarter second later they have followed.
  await page.clock.runFor(300);
  assert.notEqual(await which.textContent(), which0, 'the trace did not follow the clock');
  // Paused, then stepped: the trace explains the request at the clock, exactly.
  await page.keyboard.press(' ');
  await page.locator('button.play[aria-pressed="false"]').waitFor();
  await page.locator('button.next').click();
  await page.clock.runFor(50);
  const at = await now.textContent();
  assert.ok((await which.textContent()).endsWith(`· ${at}`), `${await which.textContent()} at ${at}`);
  // What changes every frame is laid out in boxes of its own (set size, size and
  // layout containment), not with the page.
  const contain = await page.evaluate(() =>
    ['.lane-track .plot', 'output.now > span', '.controls .scrub input'].map((s) => getComputedStyle(document.querySelector(s)).contain),
  );
  for (const c of contain) assert.ok(c.includes('size') && c.includes('layout'), contain.join(' | '));
});

test('usable at phone width: lanes stack, tables scroll', async (t) => {
  const page = await open(t, site.browser, `${site.base}?t=11.2s`, { width: 390, height: 844 });
  await page.locator('article.lane').first().waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'phone.png'), fullPage: true });
});
