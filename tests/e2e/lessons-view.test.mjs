// End-to-end: where the learner looks when a step opens, with the page's own
// stylesheet at a laptop's 1280 × 800 and a phone's 390 × 844: the step's lane on
// screen (and on a wide page its text with it), lab D's lanes not under an open
// setup form, focus kept after "Next →" pressed from the keyboard, and the panel's
// way on in one row on a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, useDist } from './helpers.mjs';

const site = useDist();

/** `selector`'s box in the window: `{ top, bottom, left, right }`. */
function box(page, selector) {
  return page.locator(selector).first().evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: innerHeight };
  });
}

/** Waits until `selector` is wholly inside the window (a smooth scroll ends). */
async function onScreen(page, selector) {
  await page.waitForFunction((s) => {
    const r = document.querySelector(s)?.getBoundingClientRect();
    return r && r.top >= 0 && r.bottom <= innerHeight;
  }, selector, { timeout: 10_000 });
}

test('a step brings its lane into view; on a wide page its text stays on screen', async (t) => {
  const page = await open(t, site.browser, `${site.base}?lesson=golden&step=4`, {
    width: 1280,
    height: 800,
  });
  await page.locator('article.lesson[data-step="3"] .proved strong.fact').first().waitFor();
  const lane = 'article.lane[data-lane="3"]';
  assert.equal(await page.locator('article.lane.step-lane').count(), 1);
  assert.equal(await page.locator(`${lane}.step-lane .step-badge`).isVisible(), true);
  await onScreen(page, lane);
  await onScreen(page, 'article.lesson .watch');
  // The clock bar sticks under the panel, not over it.
  const [panel, controls] = [await box(page, '.lessons'), await box(page, '.controls')];
  assert.ok(controls.top >= panel.bottom - 1, `${JSON.stringify({ panel, controls })}`);
  // Next → from the keyboard: the next step's lane, and focus stays on Next →.
  await page.locator('article.lesson nav button.next').focus();
  await page.keyboard.press('Enter');
  await page.locator('article.lesson[data-step="4"] .proved').waitFor();
  await onScreen(page, 'article.lane[data-lane="4"].step-lane');
  await onScreen(page, 'article.lesson .watch');
  const focused = await page.evaluate(() => {
    const a = document.activeElement;
    return `${a?.tagName}.${a?.className} in step ${a?.closest('article.lesson')?.dataset.step}`;
  });
  assert.equal(focused, 'BUTTON.next in step 4');
});

test('on a phone the step\'s lane comes into view under the clock bar', async (t) => {
  const page = await open(t, site.browser, `${site.base}?lesson=golden&step=4&lang=vi`, {
    width: 390,
    height: 844,
    reducedMotion: 'reduce',
  });
  await page.locator('article.lesson[data-step="3"] .proved strong.fact').first().waitFor();
  await page.waitForFunction(() => {
    const r = document.querySelector('article.lane[data-lane="3"]')?.getBoundingClientRect();
    const c = document.querySelector('.controls')?.getBoundingClientRect();
    return r && c && r.top >= c.bottom - 1 && r.top < innerHeight / 2;
  }, null, { timeout: 10_000 });
});

test('lab D\'s step folds the setup: its lanes are under the panel', async (t) => {
  const page = await open(t, site.browser, `${site.base}?lesson=lab-d`, {
    width: 1280,
    height: 800,
    reducedMotion: 'reduce',
  });
  await page.locator('article.lane').first().waitFor();
  assert.equal(await page.locator('details.setup-fold').evaluate((d) => d.open), false);
  const first = await box(page, 'article.lane');
  assert.ok(first.top < 800, `the first lane starts at ${first.top}`);
  // The second table (the sweep) is under the lanes, outside the folded form.
  assert.equal(await page.locator('details.setup-fold .sweep').count(), 0);
  const [last, sweep] = [await box(page, 'article.lane >> nth=-1'), await box(page, '.sweep')];
  assert.ok(sweep.top >= last.bottom, JSON.stringify({ last, sweep }));
});

for (const lang of ['en', 'vi']) {
  test(`on a phone the way on is one row, Close beside the title (${lang})`, async (t) => {
    const page = await open(t, site.browser, `${site.base}?lesson=golden&step=4&lang=${lang}`, {
      width: 390,
      height: 844,
      reducedMotion: 'reduce',
    });
    await page.locator('article.lesson .proved strong.fact').first().waitFor();
    const tops = await page.locator('article.lesson nav.way button').evaluateAll((bs) =>
      bs.map((b) => [b.className, Math.round(b.getBoundingClientRect().top)]),
    );
    const row = tops.filter(([c]) => c !== 'close').map(([, top]) => top);
    assert.equal(new Set(row).size, 1, JSON.stringify(tops));
    const [close, title, panel] = [
      await box(page, 'article.lesson button.close'),
      await box(page, 'article.lesson h3'),
      await box(page, '.lessons'),
    ];
    assert.ok(close.bottom <= title.top, JSON.stringify({ close, title }));
    assert.ok(close.right <= panel.right && close.top >= panel.top, JSON.stringify({ close, panel }));
    // Nothing overflows the page.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  });
}

for (const lang of ['en', 'vi']) {
  test(`a phone's first screen reaches the first lane's picture (${lang})`, async (t) => {
    // The page as it opens (the edge burst's first step), without scrolling.
    const page = await open(t, site.browser, `${site.base}?lang=${lang}`, {
      width: 390,
      height: 844,
      reducedMotion: 'reduce',
    });
    await page.locator('article.lesson .proved strong.fact').first().waitFor();
    await page.locator('article.lane svg.timeline').first().waitFor();
    // What the step talks about and the first lane's timeline (its marks row) are
    // both on the first screen.
    const marks = await page.locator('article.lane svg.timeline').first().evaluate((s) => {
      const r = s.getBoundingClientRect();
      return { top: r.top, marks: r.top + 62 + 8, h: innerHeight, y: scrollY };
    });
    assert.equal(marks.y, 0);
    assert.ok(marks.marks <= marks.h, JSON.stringify(marks));
    // The keys' line is left out at this width; the speed's select keeps its name.
    assert.equal(await page.locator('.ratelab > p.hint').isVisible(), false);
    const speed = await page.locator('.controls select[name="speed"]').evaluate((s) => s.labels[0].textContent.trim());
    assert.ok(speed.length > 0);
  });
}
