// The page's first module and its chunks (crates/web/src/view/chunks.rs,
// xtask/src/wasm.rs): what the bare page and a docs page with the element fetch
// before their first lane, each panel's chunk fetched when it is first shown and
// never again, and a chunk that cannot be fetched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, useDist } from './helpers.mjs';

const site = useDist();

/** What the size step counts as the first load (xtask/src/test.rs, FIRST_LOAD). */
const FIRST_LOAD = new Set([
  'ratelab-web_bg.wasm',
  'ratelab-web.js',
  '__wasm_split.js',
  'ratelab.js',
  'page.js',
  'rate-limit-playground.js',
  'style.css',
]);

/** An init script: the moment (performance.now) the first lane's marks appear,
 * looked for at every frame (a document's observer does not see into the
 * element's shadow root). */
function recordFirstLane() {
  const look = () => {
    const lane = document.querySelector('.lane svg') ??
      [...document.querySelectorAll('rate-limit-playground')].map((e) => e.shadowRoot?.querySelector('.lane svg')).find(Boolean);
    if (lane) window.__firstLane = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

/** The page's resources (file names) started before its first lane, and after. */
async function fetchedAroundFirstLane(page) {
  await page.waitForFunction(() => window.__firstLane !== undefined);
  return page.evaluate(() => {
    const name = (e) => new URL(e.name).pathname.split('/').pop();
    const all = performance.getEntriesByType('resource');
    return {
      before: all.filter((e) => e.startTime < window.__firstLane).map(name),
      after: all.filter((e) => e.startTime >= window.__firstLane).map(name),
    };
  });
}

/** The bundle's own files (not the docs page's own scripts, not the lessons' texts). */
const HOST = new Set(['docs-example.js', 'docs-example.css', 'embed-resize.js']);
const bundle = (names) => names.filter((n) => /\.(wasm|js|css)$/.test(n) && !HOST.has(n));

test('the bare page draws its first lane from the first module; the panels come after', async (t) => {
  const page = await open(t, site.browser, 'about:blank');
  await page.addInitScript(recordFirstLane);
  await page.goto(site.base);
  const { before, after } = await fetchedAroundFirstLane(page);
  for (const name of bundle(before)) assert.ok(FIRST_LOAD.has(name), `${name} fetched before the first lane`);
  assert.ok(before.includes('ratelab-web_bg.wasm'));
  // The lessons panel (the bare page opens the first lesson) and the trace table
  // arrive after, from their chunks, each once.
  await page.locator('.lessons').waitFor();
  await page.locator('.trace').waitFor();
  const later = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname.split('/').pop()),
  );
  for (const chunk of ['split_lessons.wasm', 'split_trace.wasm']) {
    assert.equal(later.filter((n) => n === chunk).length, 1, `${chunk} fetched once: ${later.join(' ')}`);
  }
  assert.ok(!later.includes('split_service.wasm'), 'no service view on a limiters page');
  assert.ok(after.length >= 0);
});

test('a docs page with the element fetches only the first module before its first lane', async (t) => {
  const page = await open(t, site.browser, 'about:blank');
  await page.addInitScript(recordFirstLane);
  await page.goto(`${site.base}docs-example.html`);
  const { before } = await fetchedAroundFirstLane(page);
  for (const name of bundle(before)) assert.ok(FIRST_LOAD.has(name), `${name} fetched before the first lane`);
  assert.ok(before.includes('ratelab-web_bg.wasm'));
});

test('a chunk that cannot be fetched: one line in the page language, the lanes keep playing', async (t) => {
  for (const [lang, words] of [
    ['en', 'could not be loaded'],
    ['vi', 'Không tải được'],
  ]) {
    const page = await open(t, site.browser, 'about:blank', {
      expected: [/HTTP 404: .*split_trace\.wasm/, /console: .*split_trace\.wasm/, /console: Failed to load resource: .*404/],
    });
    await page.route('**/split_trace.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto(`${site.base}?scenario=golden&lang=${lang}`);
    const notice = page.locator('.chunk.error[data-chunk="trace"]');
    await notice.waitFor();
    const text = await notice.textContent();
    assert.ok(text.includes(words), text);
    assert.ok(!text.includes('\n'), 'one line');
    // Everything already on screen keeps working: play moves the clock.
    const clock = () => page.locator('.ratelab input[type="range"]').first().inputValue();
    const at = Number(await clock());
    await page.keyboard.press('Space');
    await page.waitForFunction(
      (t0) => Number(document.querySelector('.ratelab input[type="range"]').value) > t0,
      at,
    );
    assert.ok((await page.locator('.lane').count()) > 0);
  }
});
