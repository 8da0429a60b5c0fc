// The compact layout (issue 31): three lanes of the edge burst fit one screen. One
// page holds four compact elements (three lanes in English and six in Vietnamese,
// each light and dark) in a column whose width the test sets: at 700
// and at 390 px every element's height is printed and held to its bound, and light
// and dark are the same height. Then, on the same page, one lane's details are
// opened from the keyboard: that lane alone grows, and shows its state over time,
// its gauge and the 429 a request would get; closed again, it is as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { artifacts, open, useSite } from './helpers.mjs';

const THREE = 'fixed_window,sliding_log,token_bucket';
const SIX = 'fixed_window,sliding_log,token_bucket,gcra,leaky_queue,nginx';
const element = (id, limiters, theme, extra = '') =>
  `<rate-limit-playground id="${id}" scenario="edge-burst" limiters="${limiters}" limit="5" period="10s" compact theme="${theme}"${extra}></rate-limit-playground>`;

const HTML = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>compact elements</title>
  <link rel="stylesheet" href="page.css" />
  <script type="module" src="ratelab/rate-limit-playground.js"></script>
</head>
<body>
  <div id="column">
    ${element('three-light', THREE, 'light')}
    ${element('three-dark', THREE, 'dark')}
    ${element('six-light', SIX, 'light', ' lang="vi"')}
    ${element('six-dark', SIX, 'dark', ' lang="vi"')}
  </div>
</body>
</html>`;

const CSS = `body { margin: 0; padding: 8px; font: 18px/1.6 Georgia, serif; }
rate-limit-playground { display: block; margin: 0 0 24px; }`;

/**
 * The most each element may be tall at each column width, px. At 700 px three
 * lanes fit in 560 px (the "one screen"); six, with the legend's "delayed"
 * and a longer nginx head, in about two. At 390 px (a phone) a lane's head takes
 * two lines.
 */
const BOUNDS = {
  700: { three: 560, six: 1080 },
  390: { three: 700, six: 1400 },
};

const site = useSite('compact', { 'compact.html': HTML, 'page.css': CSS });

/** Two animation frames: the lanes' ResizeObserver has reported and the page redrawn. */
const settled = (page) =>
  page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));

/** Each lane's height in an element, px. */
const laneHeights = (lab) =>
  lab.locator('article.lane').evaluateAll((lanes) => lanes.map((l) => Math.round(l.getBoundingClientRect().height)));

test('compact elements fit their bounds at 700 and 390 px, light and dark; a lane opens alone', async (t) => {
  const page = await open(t, site.browser, `${site.base}compact.html`, { width: 760, height: 2400 });
  const ids = ['three-light', 'three-dark', 'six-light', 'six-dark'];
  for (const id of ids) await page.locator(`#${id} article.lane .mark`).first().waitFor();
  await mkdir(artifacts, { recursive: true });

  for (const width of [700, 390]) {
    await page.setViewportSize({ width: width + 60, height: 2400 });
    await page.evaluate((w) => {
      document.getElementById('column').style.width = `${w}px`;
    }, width);
    await settled(page);
    const heights = {};
    for (const id of ids) {
      const lab = page.locator(`#${id}`);
      const box = await lab.evaluate((e) => e.getBoundingClientRect());
      assert.equal(Math.round(box.width), width, `${id} fills its ${width} px column`);
      heights[id] = Math.round(box.height);
      // Nothing inside is wider than the element (the veil is clipped by its box).
      const outside = await lab.evaluate((host) => {
        const b = host.getBoundingClientRect();
        return [...host.shadowRoot.querySelectorAll('*')]
          .filter((el) => !el.classList.contains('veil'))
          .map((el) => [el, el.getBoundingClientRect()])
          .filter(([, r]) => (r.width || r.height) && (r.right > b.right + 1 || r.left < b.left - 1))
          .map(([el, r]) => `${el.tagName}.${el.getAttribute('class')} ${r.left}..${r.right}`);
      });
      assert.deepEqual(outside, [], `${id} at ${width} px`);
    }
    console.log(`compact heights at ${width} px: ${JSON.stringify(heights)}`);
    for (const lanes of ['three', 'six']) {
      const [light, dark] = [heights[`${lanes}-light`], heights[`${lanes}-dark`]];
      assert.ok(light <= BOUNDS[width][lanes], `${lanes} lanes at ${width} px: ${light} px > ${BOUNDS[width][lanes]}`);
      assert.ok(Math.abs(light - dark) <= 1, `${lanes} lanes at ${width} px: light ${light}, dark ${dark}`);
    }
    await page.locator('#three-light').screenshot({ path: join(artifacts, `compact-three-${width}.png`) });
  }

  // Each lane is one line and a timeline: its state over time, gauge and the
  // response's text show only when its details are open.
  const lab = page.locator('#three-light');
  assert.deepEqual(
    await lab.locator('details.more summary').allTextContents(),
    ['details', 'details', 'details'],
  );
  assert.deepEqual(await page.locator('#six-dark details.more summary').first().textContent(), 'chi tiết');
  assert.equal(await lab.locator('svg.level').first().isVisible(), false);
  assert.equal(await lab.locator('.response-title').first().isVisible(), false);

  // Play to the tenth request: the sliding log refuses now (a 429, shown in its line).
  await lab.locator('.ratelab').focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  const log = lab.locator('article.lane[data-algorithm="sliding_log"]');
  await log.locator('.http[data-status="429"]').waitFor();
  assert.ok(await log.locator('.http').isVisible(), 'the status shows in the closed lane');
  const closed = await laneHeights(lab);

  // Opened from the keyboard: that lane grows, the others keep their heights.
  await log.locator('details.more summary').focus();
  await page.keyboard.press('Enter');
  await log.locator('.response-title').waitFor({ state: 'visible' });
  await settled(page);
  const opened = await laneHeights(lab);
  console.log(`lane heights closed ${closed.join(', ')}; the sliding log open: ${opened.join(', ')}`);
  assert.ok(opened[1] > closed[1] + 150, `the open lane grew: ${closed[1]} → ${opened[1]}`);
  assert.deepEqual([opened[0], opened[2]], [closed[0], closed[2]]);
  assert.ok(await log.locator('svg.level').isVisible());
  assert.ok(await log.locator('svg.gauge').isVisible());
  const response = await log.locator('.http').textContent();
  assert.match(response, /^HTTP\/1\.1 429 Too Many Requests\nRetry-After: \d+\n/);
  assert.ok((await log.locator('.http').evaluate((e) => e.getBoundingClientRect().height)) > 50);
  // The other lanes stay closed.
  assert.equal(await lab.locator('article.lane[data-algorithm="fixed_window"] svg.gauge').isVisible(), false);
  await page.locator('#three-light').screenshot({ path: join(artifacts, 'compact-three-open.png') });

  // Closed again (the keyboard's space on the summary): as it was.
  await page.keyboard.press(' ');
  await log.locator('.response-title').waitFor({ state: 'hidden' });
  await settled(page);
  assert.deepEqual(await laneHeights(lab), closed);
});

test("an element's frame before it mounts is as tall as the compact playground it becomes", async (t) => {
  // The same elements, never mounted (an IntersectionObserver that never reports),
  // against the mounted heights at each width: no jump when they mount (English
  // ones; the Vietnamese lanes' heads wrap differently).
  const measure = async (frozen) => {
    const page = await open(t, site.browser, 'about:blank', { width: 760, height: 2400 });
    if (frozen) await page.addInitScript(() => { window.IntersectionObserver = class { observe() {} unobserve() {} }; });
    await page.goto(`${site.base}compact.html`);
    const out = {};
    for (const width of [700, 390]) {
      await page.setViewportSize({ width: width + 60, height: 2400 });
      await page.evaluate((w) => { document.getElementById('column').style.width = `${w}px`; }, width);
      for (const id of ['three-light', 'three-dark']) {
        const lab = page.locator(`#${id}`);
        if (frozen) await lab.locator('.booting').waitFor();
        else await lab.locator('article.lane .mark').first().waitFor();
        await settled(page);
        out[`${id} at ${width}`] = await lab.evaluate((e) => e.getBoundingClientRect().height);
      }
    }
    return out;
  };
  const [frame, mounted] = [await measure(true), await measure(false)];
  for (const [k, h] of Object.entries(mounted)) {
    assert.ok(Math.abs(frame[k] - h) <= 2, `${k}: the frame is ${frame[k]} px, mounted ${h} px`);
  }
});
