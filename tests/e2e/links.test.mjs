// End-to-end: the page's own link (issue 17). The query string is written when
// what it says changes, never per frame: while the clock plays, the address bar is
// left alone (it keeps the moment play started) and written again once it stops.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, useDist, watchWorkersAndLongTasks } from './helpers.mjs';

const site = useDist();

/** Counts the page's history.replaceState calls (the only way it writes its URL). */
function countUrlWrites() {
  window.__urlWrites = [];
  const replace = history.replaceState.bind(history);
  history.replaceState = (state, title, url) => {
    window.__urlWrites.push(String(url));
    return replace(state, title, url);
  };
}

test('playing does not rewrite the URL; stopping writes it once', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=golden`);
  await page.evaluate(countUrlWrites);
  await page.locator('article.lane').first().waitFor();
  const now = page.locator('output.now');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('output.now')?.textContent !== '0 s');
  // The write for "play started" (if any) comes within the page's 400 ms throttle.
  await page.waitForTimeout(1500);
  const before = await page.evaluate(() => window.__urlWrites.length);
  const clockBefore = await now.textContent();
  await page.waitForTimeout(2000);
  const clockAfter = await now.textContent();
  assert.notEqual(clockAfter, clockBefore, 'the clock moved while sampled');
  assert.equal(await page.evaluate(() => window.__urlWrites.length), before, 'no URL write while playing');
  await page.keyboard.press(' ');
  await page.waitForFunction((n) => window.__urlWrites.length > n, before, { timeout: 10_000 });
  const last = await page.evaluate(() => window.__urlWrites.at(-1));
  assert.match(last, /[?&]t=\d/, 'the stopped clock is in the link');
});

// Heavy runs off the main thread (issue 15, 17): lab D's sweep, about 2.9 million
// decisions, runs in a module worker on the page's own compiled wasm module. What
// is asserted is where the work happens (a worker from worker.js was started, the
// page did not fetch the wasm again, the rows are the engine's), not a duration: on
// a loaded 2-core machine timings are not a behaviour. The longest main-thread task
// during the sweep is printed for docs/benchmarks.md, never asserted.
test('the lab D sweep runs in a worker on the same wasm', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=lab-d`);
  await watchWorkersAndLongTasks(page);
  await page.locator('article.lane').first().waitFor();
  await page.evaluate(() => (window.__long = []));
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.locator('button.run-sweep').click();
  await page.locator('.sweep-table tbody tr').nth(5).waitFor({ timeout: 60_000 });
  const row = page.locator('.sweep-table tr[data-load="1.25x"] td');
  assert.deepEqual(await row.allTextContents(), ['374\u202F513', '42\u202F318', '39\u202F136']);
  const workers = await page.evaluate(() => window.__workers);
  assert.equal(workers.length, 1, 'one worker for the sweep');
  assert.match(workers[0].url, /\/worker\.js$/);
  assert.equal(workers[0].type, 'module');
  // The worker's own requests (its script, the glue) are the page's too; the first
  // module is not among them (the worker was handed it compiled), only the sweep's
  // chunk and the chunks it shares.
  assert.ok(requested.includes('/worker.js'), `worker.js was loaded (${requested})`);
  const wasm = requested.filter((p) => p.endsWith('.wasm'));
  assert.ok(!wasm.includes('/ratelab-web_bg.wasm'), `no second download of the first module: ${wasm}`);
  assert.ok(wasm.every((p) => /^\/(split_sweep|chunk_\d+)\.wasm$/.test(p)), `only the sweep's chunks: ${wasm}`);
  const long = await page.evaluate(() => window.__long);
  console.log(`# sweep: ${long.length} main-thread long tasks, longest ${Math.max(0, ...long).toFixed(0)} ms`);
});
