// End-to-end: a big JSON import on the page (issue 17). A stream longer than the
// custom box takes (10 000 requests) is not written out as text there: the box is
// empty under a short line that says how many were imported, in the page's
// language. The big text boxes say autocomplete="off" (else Chromium copies their
// megabytes into every history entry the page's URL writes). The page's own link
// still opens after such an import; the boxes are their own layout roots
// (`contain: strict`), so a frame never lays their text out. And the work budget's refusal is said in
// Vietnamese on the Vietnamese page. A text over 1 MB is read in the page's
// worker (the line says "reading…"), with what the page's own reading gives (a
// page whose Worker cannot start, or whose policy forbids workers, reads it
// itself). Speed is measured by
// crates/bench/browser/import.mjs, never here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, serve, dist, STRICT_CSP, recordViolations, useDist, watchWorkersAndLongTasks } from './helpers.mjs';

const site = useDist();

/** Opens the JSON box, puts a config of `n` requests in it, and imports it. */
async function importRequests(page, n, { unsorted = false } = {}) {
  const box = page.locator('details.json').first();
  // The setup form is a chunk, fetched once its fold is open: unfold it if a
  // lesson folded it, then wait for the box.
  const fold = page.locator('details.setup-fold').first();
  if (!(await fold.evaluate((d) => d.open))) await fold.locator('summary').click();
  await box.waitFor();
  await box.locator('summary').click();
  await page.evaluate(([n, unsorted]) => {
    const times = Array.from({ length: n }, (_, i) => i * 5);
    if (unsorted) times.push(0);
    const config = {
      requests: times,
      limiters: [
        { algorithm: 'fixed_window', limit: 5, period_ms: 10000 },
        { algorithm: 'sliding_log', limit: 5, period_ms: 10000 },
        { algorithm: 'gcra', limit: 5, period_ms: 10000 },
      ],
    };
    const area = document.querySelector('details.json textarea');
    area.value = JSON.stringify(config);
    area.dispatchEvent(new Event('change', { bubbles: true }));
  }, [n, unsorted]);
  await box.locator('button.import').click();
}

test('an import over the custom box cap shows a short line, not the stream', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=golden`);
  await page.locator('article.lane').first().waitFor();
  await importRequests(page, 20_001);
  await page.waitForFunction(() => document.querySelector('select[name="scenario"]')?.value === 'custom');
  assert.equal(await page.locator('details.json .error').textContent(), '');
  const line = page.locator('.custom .too-many');
  assert.match(await line.textContent(), /^20001 requests imported; too many to edit here \(at most 10000\)/);
  assert.equal(await page.locator('.custom textarea').inputValue(), '');
  for (const box of ['.custom textarea', 'details.json textarea']) {
    assert.equal(await page.locator(box).getAttribute('autocomplete'), 'off', box);
    // Its own layout root, with a height of its own (not collapsed by it).
    const [contain, height] = await page
      .locator(box)
      .evaluate((e) => [getComputedStyle(e).contain, e.getBoundingClientRect().height]);
    assert.equal(contain, 'strict', box);
    assert.ok(height > 40, `${box}: ${height} px high`);
  }
  // In Vietnamese too.
  await page.locator('label.lang select').selectOption('vi');
  assert.match(await line.textContent(), /^Đã nhập 20001 yêu cầu; quá nhiều để sửa ở đây \(tối đa 10000\)/);
  // The page's link (written after a short delay) opens, with the custom scenario.
  await page.waitForFunction(() => location.search.includes('scenario=custom'));
  const link = await page.evaluate(() => location.href);
  const again = await open(t, site.browser, link);
  await again.locator('article.lane').first().waitFor();
  assert.equal(await again.locator('.crash').count(), 0);
  assert.equal(await again.locator('select[name="scenario"]').inputValue(), 'custom');
  // A small stream typed into the emptied box replaces the imported one.
  await page.locator('.custom textarea').fill('1s 2s 3s');
  await page.locator('.custom button.apply').click();
  await page.waitForFunction(() => document.querySelector('.custom textarea').value === '1s 2s 3s');
  assert.equal(await line.textContent(), '');
});

test('the work budget refuses in Vietnamese on the Vietnamese page', async (t) => {
  const link = 'lang=vi&scenario=edge-burst&limit=1000000&period=8000000000000000&hl=1';
  const page = await open(t, site.browser, `${site.base}?${link}`);
  await page.locator('article.lane').first().waitFor();
  const notices = page.locator('.notices');
  await notices.waitFor();
  const said = await notices.textContent();
  assert.match(said, /scenario=edge-burst: quá nhiều cho một lần chạy: khoảng [\d.]+ [KMGT]B bộ nhớ/);
  assert.doesNotMatch(said, /too much|over the budget/);
});

test('a big import is built in slices with a progress line, then runs', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=golden`);
  await page.locator('article.lane').first().waitFor();
  await watchProgress(page);
  await importRequests(page, 100_000);
  await page.waitForFunction(() => document.querySelector('select[name="scenario"]')?.value === 'custom');
  const seen = await page.evaluate(() => window.__progress);
  assert.ok(seen.length >= 2, JSON.stringify(seen));
  assert.match(seen[0], /^building… 0 % \(0 of 100000 requests\)$/);
  assert.ok(seen.some((p) => /^building… [1-9]\d? %/.test(p)), JSON.stringify(seen));
  assert.equal(await page.locator('details.json .building').textContent(), '');
  assert.equal(await page.locator('details.json .error').textContent(), '');
  assert.match(await page.locator('.custom .too-many').textContent(), /^100000 requests imported/);
});

/** Every text the progress line shows, from now on (`window.__progress`). */
async function watchProgress(page) {
  await page.evaluate(() => {
    window.__progress = [];
    new MutationObserver(() => {
      const p = document.querySelector('details.json .building')?.textContent;
      if (p && window.__progress.at(-1) !== p) window.__progress.push(p);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/**
 * What the page shows once an import is done: the scenario, the JSON line, the
 * lanes, and (before the export it then clicks) its longest main-thread task.
 */
async function outcome(page) {
  // Done: the custom scenario, or an error under the box; nothing left to read or
  // build. (The click has set one of these in its own task: "reading…", the first
  // slice's line, or the error.)
  await page.waitForFunction(
    () =>
      (document.querySelector('select[name="scenario"]')?.value === 'custom' ||
        document.querySelector('details.json .error')?.textContent !== '') &&
      document.querySelector('details.json .building')?.textContent === '',
    null,
    { timeout: 120_000 },
  );
  const shown = {
    scenario: await page.locator('select[name="scenario"]').inputValue(),
    error: await page.locator('details.json .error').textContent(),
    lanes: await page.locator('article.lane').allTextContents(),
    custom: await page.evaluate(() => document.querySelector('.custom .too-many')?.textContent ?? null),
  };
  const longest = Math.max(0, ...(await page.evaluate(() => window.__long ?? [])));
  // The setup in force, all of it: exported as JSON (its length and a hash).
  await page.locator('details.json button.export').click();
  shown.exported = await page.evaluate(() => {
    const text = document.querySelector('details.json textarea').value;
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
    return `${text.length} ${h}`;
  });
  return [shown, longest];
}

test('a big import is read in the worker, with what this thread reads', async (t) => {
  // 300 000 requests: 2.1 MB of text, over the 1 MB a worker reads.
  for (const unsorted of [false, true]) {
    const page = await open(t, site.browser, `${site.base}?scenario=golden`);
    await page.locator('article.lane').first().waitFor();
    await watchWorkersAndLongTasks(page);
    await watchProgress(page);
    await importRequests(page, 300_000, { unsorted });
    const [there, longest] = await outcome(page);
    const workers = await page.evaluate(() => window.__workers);
    assert.deepEqual(workers, [{ url: new URL('worker.js', site.base).href, type: 'module' }]);
    const seen = await page.evaluate(() => window.__progress);
    assert.equal(seen[0], 'reading…', JSON.stringify(seen));
    console.log(`# read in the worker (unsorted: ${unsorted}): longest main-thread task ${longest.toFixed(0)} ms`);
    if (unsorted) {
      assert.equal(there.error, 'requests[300000]: 0 comes before requests[299999] = 1499995 (requests must be sorted by time)');
      assert.equal(there.scenario, 'golden');
    } else {
      assert.equal(there.error, '');
      assert.equal(there.scenario, 'custom');
      assert.ok(seen.some((p) => p.startsWith('building…')), JSON.stringify(seen));
    }
    // The same text where no worker can start: read on the page's thread.
    const here = await open(t, site.browser, `${site.base}?scenario=golden`);
    await here.locator('article.lane').first().waitFor();
    await here.evaluate(() => {
      window.Worker = class {
        constructor() {
          throw new Error('no workers here');
        }
      };
    });
    await watchWorkersAndLongTasks(here);
    await watchProgress(here);
    await importRequests(here, 300_000, { unsorted });
    const [shown, longestHere] = await outcome(here);
    console.log(`# read on the page's thread: longest main-thread task ${longestHere.toFixed(0)} ms`);
    assert.deepEqual(shown, there);
  }
});

test('where the page forbids workers, a big import is read on its own thread, the same', async (t) => {
  // A policy with worker-src 'none': the worker the import asks for is refused
  // (a violation by design, so not `open`'s check), and the page reads the text
  // itself, after saying "reading…".
  const strict = await serve(dist, { csp: `${STRICT_CSP}; worker-src 'none'` });
  t.after(() => new Promise((ok) => strict.close(ok)));
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  t.after(() => context.close());
  await context.addInitScript(recordViolations);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${strict.address().port}/?scenario=golden`);
  await page.locator('article.lane').first().waitFor();
  await watchProgress(page);
  await importRequests(page, 300_000);
  const [here] = await outcome(page);
  const seen = await page.evaluate(() => window.__progress);
  assert.equal(seen[0], 'reading…', JSON.stringify(seen));
  assert.equal(here.scenario, 'custom');
  assert.equal(here.error, '');
  // The policy did refuse the worker (so this page read the text itself).
  const violations = await page.evaluate(() => window.__violations);
  assert.ok(violations.some((v) => v.startsWith('worker-src')), JSON.stringify(violations));
  // What a page with a worker shows for the same text.
  const there = await open(t, site.browser, `${site.base}?scenario=golden`);
  await there.locator('article.lane').first().waitFor();
  await importRequests(there, 300_000);
  const [shown] = await outcome(there);
  assert.deepEqual(here, shown);
  assert.deepEqual(errors, []);
});
