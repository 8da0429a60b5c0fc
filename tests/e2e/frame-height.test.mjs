// An iframe's height over time (issue 31): embed-resize.js, in <head> without
// defer, reserves its height before the first paint (no 150 px first), and the frame
// goes from there straight to its final height: embed.html posts no height while it
// shows "Loading…" (which gave 560 → 120 → the full height). The heights
// are recorded in the page by a ResizeObserver from the iframe's insertion and
// printed; what is asserted is their order, never a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, useSite } from './helpers.mjs';

const RECORD_JS = `
window.__heights = [];
const sizes = new ResizeObserver((entries) => {
  for (const e of entries) {
    const h = Math.round(e.target.getBoundingClientRect().height);
    if (window.__heights.at(-1) !== h) window.__heights.push(h);
  }
});
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) if (n.tagName === 'IFRAME') sizes.observe(n);
}).observe(document.documentElement, { childList: true, subtree: true });
`;

const HTML = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>a frame's heights</title>
  <script src="record.js"></script>
  <script src="ratelab/embed-resize.js"></script>
</head>
<body>
  <p>Before the frame.</p>
  <iframe id="lab" src="ratelab/embed.html?scenario=lab-c&compact=1" title="ratelab: lab C"></iframe>
  <p>After the frame.</p>
</body>
</html>`;

const site = useSite('frame', { 'frame.html': HTML, 'record.js': RECORD_JS });

test('an iframe goes from its reserved height straight to its final height', async (t) => {
  const page = await open(t, site.browser, `${site.base}frame.html`, { width: 960, height: 800 });
  await page.frameLocator('#lab').locator('article.lane').first().waitFor();
  await page.waitForFunction(() => document.querySelector('#lab').dataset.ratelabSized === 'sized');
  // The frame's own layout settled: its body and the frame agree.
  await page.waitForFunction(() => {
    const f = document.querySelector('#lab');
    return Math.abs(f.getBoundingClientRect().height - f.contentDocument.body.getBoundingClientRect().height) <= 2;
  });
  const heights = await page.evaluate(() => window.__heights);
  console.log(`lab C's iframe, heights in order: ${heights.join(' → ')} px`);
  const reserved = heights.indexOf(560);
  assert.ok(reserved >= 0, `no 560 px reserve: ${heights.join(' → ')}`);
  const final = heights.at(-1);
  assert.ok(final > 560, `lab C is taller than the reserve: ${heights.join(' → ')}`);
  assert.deepEqual(heights.slice(reserved), [560, final], `after the reserve: ${heights.join(' → ')}`);
  // embed-resize.js in <head> without defer: reserved before the first paint, no 150 px first.
  assert.equal(reserved, 0, `the browser's default height came first: ${heights.join(' → ')}`);
});
