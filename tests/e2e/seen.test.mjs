// Mounted when seen (issue 31): twenty <rate-limit-playground> elements on one page,
// under the strict CSP. Before scrolling only the elements within about a screen of
// the viewport are mounted (the others show their static frame: a title and
// placeholder lanes); scrolling to the last one mounts it, and elements never
// scrolled to stay frames. Twenty elements near the viewport at once mount one per
// task (each batch of DOM changes holds one new playground); without
// IntersectionObserver every element mounts at once. No times are asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, useSite } from './helpers.mjs';

const COUNT = 20;

// Before any module: every shadow root is watched, and each batch of DOM changes
// (one per microtask checkpoint, so at most one per task) records how many
// playgrounds it mounted.
const WATCH_JS = `
window.__batches = [];
const seen = new MutationObserver((records) => {
  let mounted = 0;
  for (const r of records) {
    for (const n of r.addedNodes) {
      if (n.nodeType === 1 && n.matches('.ratelab:not(.booting)')) mounted += 1;
    }
  }
  if (mounted > 0) window.__batches.push(mounted);
});
const attach = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (init) {
  const root = attach.call(this, init);
  seen.observe(root, { childList: true, subtree: true });
  return root;
};
`;

const CSS = `
body { margin: 0; font: 16px/1.4 serif; }
.gap { height: 2400px; }
.crowd rate-limit-playground { height: 30px; overflow: hidden; }
`;

function html(body, cls = '') {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>twenty playgrounds</title>
  <link rel="stylesheet" href="seen.css" />
  <script src="watch.js"></script>
  <script type="module" src="ratelab/rate-limit-playground.js"></script>
</head>
<body class="${cls}">
${body}
</body>
</html>`;
}

const element = (i) =>
  `<rate-limit-playground id="e${i}" scenario="golden" limiters="fixed_window,gcra" compact></rate-limit-playground>`;
const SPREAD = Array.from({ length: COUNT }, (_, i) => `<h2>Part ${i}</h2>\n${element(i)}\n<div class="gap"></div>`).join('\n');
const CROWD = Array.from({ length: COUNT }, (_, i) => element(i)).join('\n');

const site = useSite('seen', { 'spread.html': html(SPREAD), 'crowd.html': html(CROWD, 'crowd'), 'seen.css': CSS, 'watch.js': WATCH_JS });

/** Each element: mounted or not, its lanes, its placeholder lanes. */
function states(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('rate-limit-playground')].map((e) => ({
      id: e.id,
      mounted: e.mounted,
      lanes: e.shadowRoot.querySelectorAll('article.lane').length,
      placeholders: e.shadowRoot.querySelectorAll('.lane-placeholder').length,
    })),
  );
}

/** Two frames and a task: what an IntersectionObserver would report has been. */
function settle(page) {
  return page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))),
  );
}

test('twenty elements: only those near the viewport mount, the rest when scrolled to', async (t) => {
  const page = await open(t, site.browser, `${site.base}spread.html`, { width: 960, height: 800 });
  await page.locator('#e0 article.lane').first().waitFor();
  await settle(page);
  let now = await states(page);
  const mounted = now.filter((s) => s.mounted);
  assert.deepEqual(mounted.map((s) => s.id), ['e0'], JSON.stringify(now));
  assert.equal(now[0].lanes, 2);
  // The others show their static frame: two placeholder lanes, no lanes.
  for (const s of now.slice(1)) assert.deepEqual([s.lanes, s.placeholders], [0, 2], JSON.stringify(s));
  // The frame is the stylesheet's: a placeholder lane has its box.
  const box = await page.locator('#e5 .lane-placeholder').first().evaluate((p) => p.getBoundingClientRect().height);
  assert.ok(box > 100, `placeholder lane ${box} px`);

  await page.locator('#e19').evaluate((e) => e.scrollIntoView());
  await page.locator('#e19 article.lane').first().waitFor();
  await settle(page);
  now = await states(page);
  assert.equal(now[19].lanes, 2);
  assert.equal(now[19].placeholders, 0);
  // Jumped over: never near the viewport, never mounted.
  for (const i of [3, 8, 13]) assert.equal(now[i].mounted, false, JSON.stringify(now[i]));

  await page.locator('#e8').evaluate((e) => e.scrollIntoView());
  await page.locator('#e8 article.lane').first().waitFor();
  // Every mount was a batch of its own.
  const batches = await page.evaluate(() => window.__batches);
  assert.ok(batches.every((n) => n === 1), JSON.stringify(batches));
  // The playgrounds work: a step moves one element's clock.
  await page.locator('#e8 button.next').click();
  await page.locator('#e8 output.now', { hasText: '2 s' }).waitFor();
});

test('twenty elements in view at once mount one per task', async (t) => {
  const page = await open(t, site.browser, `${site.base}crowd.html`, { width: 960, height: 800 });
  await page.waitForFunction(
    (n) => [...document.querySelectorAll('rate-limit-playground')].filter((e) => e.mounted).length === n,
    COUNT,
  );
  await settle(page);
  const batches = await page.evaluate(() => window.__batches);
  assert.equal(batches.length, COUNT, JSON.stringify(batches));
  assert.ok(batches.every((n) => n === 1), JSON.stringify(batches));
});

test('without IntersectionObserver every element mounts at once', async (t) => {
  const page = await open(t, site.browser, 'about:blank', { width: 960, height: 800 });
  await page.addInitScript(() => {
    delete window.IntersectionObserver;
  });
  await page.goto(`${site.base}spread.html`);
  await page.waitForFunction(
    (n) => [...document.querySelectorAll('rate-limit-playground')].filter((e) => e.mounted).length === n,
    COUNT,
  );
  const now = await states(page);
  assert.ok(now.every((s) => s.lanes === 2), JSON.stringify(now));
  const batches = await page.evaluate(() => window.__batches);
  assert.ok(batches.every((n) => n === 1), JSON.stringify(batches));
});
