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
  // The setup is folded under the lesson: its form is not fetched, nor the JSON reader.
  for (const chunk of ['split_setup.wasm', 'split_import.wasm']) {
    assert.ok(!later.includes(chunk), `${chunk} fetched with the setup folded: ${later.join(' ')}`);
  }
  assert.ok(!after.includes('ratelab-web_bg.wasm'), 'the first module fetched once');
});

/** How many times the page fetched `file`. */
const fetches = (page, file) =>
  page.evaluate(
    (file) => performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith(`/${file}`)).length,
    file,
  );

test('the setup form comes when the setup is unfolded, the JSON reader when the box exports or imports, each once', async (t) => {
  const page = await open(t, site.browser, `${site.base}?lesson=golden&step=1`);
  await page.locator('article.lane').first().waitFor();
  await page.locator('.lessons').waitFor();
  assert.equal(await fetches(page, 'split_setup.wasm'), 0);
  const fold = page.locator('details.setup-fold > summary');
  await fold.click();
  await page.locator('select[name="scenario"]').waitFor();
  assert.equal(await fetches(page, 'split_setup.wasm'), 1);
  assert.equal(await fetches(page, 'split_import.wasm'), 0, 'no JSON reader until the box is used');
  await fold.click();
  await fold.click();
  await page.locator('details.json > summary').click();
  await page.locator('details.json button.export').click();
  await page.waitForFunction(() => document.querySelector('details.json textarea').value.startsWith('{"requests":'));
  assert.equal(await fetches(page, 'split_import.wasm'), 1);
  // The exported text imports back: the same lanes, a custom scenario.
  const lanes = await page.locator('article.lane').evaluateAll((a) => a.map((x) => x.dataset.algorithm));
  await page.locator('details.json button.import').click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('scenario') === 'custom');
  assert.deepEqual(await page.locator('article.lane').evaluateAll((a) => a.map((x) => x.dataset.algorithm)), lanes);
  assert.equal(await page.locator('details.json .error').textContent(), '');
  assert.equal(await fetches(page, 'split_setup.wasm'), 1);
  assert.equal(await fetches(page, 'split_import.wasm'), 1);
});

test('a JSON reader that cannot be fetched: the box says so in one line, the page keeps working', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=golden&lang=vi`, {
    expected: [/HTTP 404: .*split_import\.wasm/, /console: .*split_import\.wasm/, /console: Failed to load resource: .*404/],
  });
  await page.route('**/split_import.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.locator('article.lane').first().waitFor();
  await page.locator('details.json > summary').click();
  await page.locator('details.json textarea').fill('{"requests": [0], "limiters": [{"algorithm": "gcra", "limit": 1, "period_ms": 1000}]}');
  await page.locator('details.json textarea').dispatchEvent('change');
  await page.locator('details.json button.import').click();
  const error = page.locator('details.json .error');
  await page.waitForFunction(() => document.querySelector('details.json .error')?.textContent !== '');
  assert.match(await error.textContent(), /^Không tải được phần này của playground/);
  // Nothing else changed: the golden stream's lanes, and the clock still plays.
  assert.equal(new URL(page.url()).searchParams.get('scenario'), 'golden');
  await page.locator('button.play').click();
  await page.waitForFunction(() => document.querySelector('output.now')?.textContent !== '0 s');
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
