// A hostile host page: dir=rtl, uppercase, letter and word spacing, nowrap and a
// 62.5% root font on the page, the element in a 700 px and a 320 px column, under
// the strict CSP. The element keeps its own layout (nothing overflows its box, its
// text is not transformed), follows its theme, keeps the keys it handles, and
// mount() with style.css restyles nothing of the host; mount() refuses null,
// detached and already-mounted elements and works afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { artifacts, open, useSite } from './helpers.mjs';

const HOST_CSS = `
html { font-size: 62.5%; }
body { font: 1.4rem/1.4 Georgia, serif; text-transform: uppercase; letter-spacing: 3px;
       word-spacing: 12px; white-space: nowrap; text-align: right; margin: 0; }
.column { width: 700px; margin: 0 auto; }
.narrow { width: 320px; }
.dark-host { color-scheme: dark; }
.hidden { color: rgb(1, 2, 3); }
.badge { color: rgb(4, 5, 6); }
`;

const HOST_JS = `
import { load } from './ratelab/ratelab.js';
window.hostKeys = 0;
document.addEventListener('keydown', (e) => { if (e.key === 'ArrowRight') window.hostKeys += 1; });
window.ratelab = load();
`;

const HOST_HTML = `<!DOCTYPE html>
<html lang="en" dir="rtl">
<head>
  <meta charset="utf-8" />
  <title>host</title>
  <link rel="stylesheet" href="host.css" />
  <link rel="stylesheet" href="ratelab/style.css" />
  <script type="module" src="ratelab/rate-limit-playground.js"></script>
  <script type="module" src="host.js"></script>
</head>
<body>
  <p class="hidden" id="host-hidden">host text</p>
  <p><span class="badge" id="host-badge">badge</span></p>
  <div class="column"><rate-limit-playground id="wide" scenario="golden"></rate-limit-playground></div>
  <div class="column narrow"><rate-limit-playground id="narrow" scenario="edge-burst" theme="dark"></rate-limit-playground></div>
  <div class="column dark-host"><rate-limit-playground id="auto" compact></rate-limit-playground></div>
  <div class="column"><rate-limit-playground id="nope" scenario="nope" compact></rate-limit-playground></div>
  <div class="column" id="mounted"></div>
</body>
</html>`;

const site = useSite('host', { 'host.html': HOST_HTML, 'host.css': HOST_CSS, 'host.js': HOST_JS });

/** What in `#id`'s shadow root reaches outside the element's box (px, by element). */
function overflow(page, id) {
  return page.evaluate((id) => {
    const host = document.getElementById(id);
    const box = host.getBoundingClientRect();
    const out = [];
    for (const el of host.shadowRoot.querySelectorAll('*')) {
      // Inside a scrolling box, wide content scrolls instead of overflowing.
      if (el.closest('.scroll') && !el.classList.contains('scroll')) continue;
      // The veil over the future is clipped by its clock box (overflow: hidden).
      if (el.classList.contains('veil')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.right > box.right + 1 || r.left < box.left - 1) {
        out.push(`${el.tagName.toLowerCase()}.${el.className?.baseVal ?? el.className}: ${r.left}..${r.right} in ${box.left}..${box.right}`);
      }
    }
    return out;
  }, id);
}

test('host styles do not reach in, nothing reaches out, the layout fits the column', async (t) => {
  const page = await open(t, site.browser, `${site.base}host.html`, { width: 1280 });
  for (const id of ['wide', 'narrow', 'auto', 'nope']) {
    await page.locator(`#${id} article.lane`).first().waitFor();
  }
  const styles = await page.locator('#wide .ratelab').evaluate((el) => {
    const s = getComputedStyle(el);
    const label = getComputedStyle(el.querySelector('.field .label'));
    return {
      direction: s.direction,
      textTransform: s.textTransform,
      letterSpacing: s.letterSpacing,
      wordSpacing: s.wordSpacing,
      whiteSpace: s.whiteSpace,
      textAlign: s.textAlign,
      fontSize: s.fontSize,
      label: parseFloat(label.fontSize),
    };
  });
  assert.deepEqual(
    { ...styles, label: styles.label >= 12 },
    {
      direction: 'ltr',
      textTransform: 'none',
      letterSpacing: 'normal',
      wordSpacing: '0px',
      whiteSpace: 'normal',
      textAlign: 'left',
      fontSize: '15px',
      label: true,
    },
  );
  // The first lane starts at the left (no mirroring).
  const [laneLeft, hostLeft] = await page.locator('#wide').evaluate((h) => [
    h.shadowRoot.querySelector('article.lane').getBoundingClientRect().left,
    h.getBoundingClientRect().left,
  ]);
  assert.ok(laneLeft - hostLeft < 40, `${laneLeft} vs ${hostLeft}`);
  assert.deepEqual(await overflow(page, 'wide'), []);
  assert.deepEqual(await overflow(page, 'narrow'), []);
  // The side panel sits beside the timeline only when the element is wide enough.
  const side = (id) =>
    page.locator(`#${id}`).evaluate((h) => {
      const lane = h.shadowRoot.querySelector('.lane-body');
      return getComputedStyle(lane).flexDirection;
    });
  assert.equal(await side('wide'), 'column');
  assert.equal(await side('narrow'), 'column');

  // Nothing of style.css restyles the host page.
  assert.equal(await page.locator('#host-hidden').evaluate((e) => getComputedStyle(e).display), 'block');
  assert.equal(await page.locator('#host-badge').evaluate((e) => getComputedStyle(e).color), 'rgb(4, 5, 6)');
  assert.match(await page.evaluate(() => getComputedStyle(document.body).fontFamily), /Georgia/);

  // Theme: light by default on a light host, dark when asked, dark on a dark host.
  const paper = (id) => page.locator(`#${id} .ratelab`).evaluate((e) => getComputedStyle(e).backgroundColor);
  assert.equal(await paper('wide'), 'rgb(251, 250, 247)');
  assert.equal(await paper('narrow'), 'rgb(20, 23, 29)');
  assert.equal(await paper('auto'), 'rgb(20, 23, 29)');

  // An unknown attribute value: the usual notice, in the element.
  await page.locator('#nope .notices', { hasText: 'scenario=nope' }).waitFor();

  // Keys: handled ones stay inside while it has focus; none taken without focus.
  await page.locator('#wide .ratelab').focus();
  await page.keyboard.press('ArrowRight');
  await page.locator('#wide output.now', { hasText: '2 s' }).waitFor();
  assert.equal(await page.evaluate(() => window.hostKeys), 0);
  await page.locator('#host-hidden').click();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => window.hostKeys), 1);
  assert.equal(await page.locator('#wide output.now').textContent(), '2 s');

  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'host.png'), fullPage: true });
});

test('mount(): clear errors for bad elements, and a valid mount afterwards', async (t) => {
  const page = await open(t, site.browser, `${site.base}host.html`);
  const result = await page.evaluate(async () => {
    const { mount } = await window.ratelab;
    const error = (f) => {
      try {
        f();
        return 'no error';
      } catch (e) {
        return `${e.constructor.name}: ${e.message}`;
      }
    };
    const target = document.getElementById('mounted');
    const detached = document.createElement('div');
    const errors = [
      error(() => mount(null, {})),
      error(() => mount({}, {})),
      error(() => mount(document.createTextNode('x'), {})),
      error(() => mount(detached, {})),
      error(() => mount(target, 12345)),
    ];
    const first = mount(target, { scenario: 'lab-c', compact: true });
    errors.push(error(() => mount(target, {})));
    const lanes = target.querySelectorAll('article.lane').length;
    const query = first.query();
    first.unmount();
    const after = target.querySelectorAll('article.lane').length;
    const again = mount(target, { compact: true });
    return { errors, lanes, query, after, again: target.querySelectorAll('article.lane').length > 0 && !!again };
  });
  assert.deepEqual(result.errors, [
    'TypeError: mount(element, options): element must be an HTML element, got null',
    'TypeError: mount(element, options): element must be an HTML element, got an object',
    'TypeError: mount(element, options): element must be an HTML element, got a node that is not an element',
    'Error: mount(element, options): element is not in the document; insert it first',
    'TypeError: mount(element, options): options must be an object, got a number',
    'Error: mount(element, options): element already holds a playground; unmount() it first',
  ]);
  assert.equal(result.lanes, 5); // lab C: two token buckets, GCRA, the leaky queue, nginx
  assert.match(result.query, /scenario=lab-c/);
  assert.equal(result.after, 0);
  assert.ok(result.again);
  // mount() styles (style.css on the host) match only inside the playground.
  assert.equal(await page.locator('#host-badge').evaluate((e) => getComputedStyle(e).color), 'rgb(4, 5, 6)');
  assert.deepEqual(await overflow(page, 'wide'), []);
});

test('a production box fetches its script beside the loader, from a page in another folder', async (t) => {
  const page = await open(t, site.browser, `${site.base}host.html`);
  const lane = page.locator('#wide article.lane[data-lane="0"]');
  await lane.waitFor();
  const algorithm = await lane.getAttribute('data-algorithm');
  const box = lane.locator('details.production');
  await box.locator('summary').click();
  // The script's block, once fetched (the call's block below it shows at once,
  // and a "loading" line stands where the script will be until it comes).
  const code = box.locator('pre.code').filter({ hasText: `-- ratelab ${algorithm}` });
  await code.waitFor();
  assert.equal(await box.locator('p.loading').count(), 0);
  const text = await code.textContent();
  assert.ok(text.startsWith(`-- ratelab ${algorithm}`), `${algorithm}: ${text.slice(0, 80)}`);
  // The shared parts are spliced in, as the build assembles them.
  // (No line is a part's marker, `--@name`; the prose may name a part that way.)
  assert.ok(!/^--@\w+\s*$/m.test(text), text);
  assert.ok(text.includes('redis.call'), text.slice(0, 200));
  assert.equal(await box.locator('p.error').count(), 0);
  // The call below names the SHA1 of exactly these bytes, and loads them from the
  // saved file the way that keeps them (redis-cli -x; "$(cat …)" drops the last
  // newline, and SCRIPT LOAD would answer another SHA1 than the one EVALSHA uses).
  const sha = createHash('sha1').update(text, 'utf8').digest('hex');
  const call = await box.locator('pre.code').filter({ hasText: 'redis-cli' }).textContent();
  const name = text.match(/^-- ratelab (\w+)/)[1];
  assert.ok(call.includes(`(prints ${sha}, `), call);
  assert.ok(call.includes(`\nredis-cli -x SCRIPT LOAD < ${name}.lua\n`), call);
  assert.ok(call.includes(`\nredis-cli EVALSHA ${sha} `), call);
  assert.ok(!call.includes('$(cat'), call);
  // Copy copies the same bytes the block shows.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.base });
  await box.locator('.copy-row button').click();
  await box.locator('.copy-row button', { hasText: 'Copied' }).waitFor();
  let copied = '';
  for (let i = 0; i < 50 && copied !== text; i++) {
    copied = await page.evaluate(() => navigator.clipboard.readText());
    if (copied !== text) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(copied, text);
});
