// A shared link of the built page, stepped to the end: the yardstick table and the
// marks must be what the command line computes for the same config (the fixture
// tests/e2e/fixtures/golden-six.report.json is `ratelab simulate` of
// golden-six.input.json; crates/web/tests/fixture.rs checks it is current and that
// golden-six.link.txt describes the same config).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifacts, dist, fixtures, launch, open, serve } from './helpers.mjs';

let server;
let browser;
let base;
let link;
let report;

before(async () => {
  server = await serve(dist);
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
  link = (await readFile(join(fixtures, 'golden-six.link.txt'), 'utf8')).trim();
  report = JSON.parse(await readFile(join(fixtures, 'golden-six.report.json'), 'utf8'));
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

/** Reads the yardstick table: per lane, the numbers in data-value. */
function yardstick(page) {
  return page.locator('.yardstick tbody tr').evaluateAll((rows) =>
    rows.map((r) => {
      const v = (c) => Number(r.querySelector(`td.${c}`).dataset.value);
      return {
        algorithm: r.dataset.algorithm,
        passed: v('passed'),
        blocked: v('blocked'),
        max_in_window: v('max-window'),
        max_in_1s: v('max-1s'),
        longest_wait_ms: v('longest-wait'),
        state_numbers: v('state'),
      };
    }),
  );
}

test('a shared link stepped to the end shows the engine\'s numbers', async (t) => {
  const page = await open(t, browser, `${base}?${link}`);
  await page.locator('article.lane').first().waitFor();
  // The link opens at 19.5 s with the busiest windows highlighted.
  assert.equal(await page.locator('output.now').textContent(), '19.5 s');
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'golden-19.5s.png'), fullPage: true });
  const busiest = page.locator('article[data-algorithm="fixed_window"] .busiest');
  assert.equal(await busiest.getAttribute('data-count'), '9');
  assert.equal(await page.locator('article[data-algorithm="fixed_window"] .mark.in-max').count(), 9);

  // Step to the end with the keyboard.
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => {
    const r = document.querySelector('input[name="clock"]');
    return r && r.value === r.max;
  });
  const expected = report.results.map((r) => ({
    algorithm: r.algorithm,
    passed: r.passed,
    blocked: r.blocked,
    max_in_window: r.max_in_window,
    max_in_1s: r.max_in_1s,
    longest_wait_ms: r.longest_wait_ms,
    state_numbers: r.state_numbers,
  }));
  assert.deepEqual(await yardstick(page), expected);

  // Every mark carries the engine's decision.
  for (const [j, r] of report.results.entries()) {
    const decisions = await page
      .locator(`article[data-lane="${j}"] .mark`)
      // In request order: a pile of close marks is drawn last request first.
      .evaluateAll((m) =>
        m
          .map((x) => [Number(x.dataset.index), x.dataset.decision])
          .sort((a, b) => a[0] - b[0])
          .map(([, d]) => d),
      );
    const want = r.allowed.map((a, i) => (!a ? 'deny' : r.wait_ms[i] > 0 ? 'delay' : 'allow'));
    assert.deepEqual(decisions, want, r.id);
  }
});

test('the golden stream at 11.2 s: the queue makes request 10 wait 9.8 s', async (t) => {
  const page = await open(t, browser, `${base}?${link.replace('t=19.5s', 't=11.2s')}`);
  await page.locator('article.lane').first().waitFor();
  const mark = page.locator('article[data-algorithm="leaky_queue"] .mark[data-index="9"]');
  assert.equal(await mark.getAttribute('data-decision'), 'delay');
  assert.match(await mark.locator('title').textContent(), /delayed 9\.8 s/);
  const verdict = page.locator('.trace tr[data-lane="4"] .verdict');
  assert.equal(await verdict.textContent(), 'delayed 9.8 s');
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'golden-11.2s.png'), fullPage: true });
});

test('invalid values in a link fall back with a visible notice', async (t) => {
  const page = await open(t, browser, `${base}?scenario=golden&limit=0&period=NaN&limiters=gcra,nope`);
  const notice = page.locator('.notices');
  await notice.waitFor();
  const text = await notice.textContent();
  assert.match(text, /limit=0: must be > 0/);
  assert.match(text, /period=NaN/);
  assert.match(text, /unknown limiter nope/);
  assert.equal(await page.locator('article.lane').count(), 1);
});

test('the lab D sweep runs in the browser on demand', async (t) => {
  const page = await open(t, browser, `${base}?scenario=lab-d`);
  await page.locator('article.lane').first().waitFor();
  await page.locator('button.run-sweep').click();
  await page.locator('.sweep-table tbody tr').nth(5).waitFor({ timeout: 60_000 });
  const row = page.locator('.sweep-table tr[data-load="1.25x"] td');
  assert.deepEqual(await row.allTextContents(), ['374\u202F513', '42\u202F318', '39\u202F136']);
  assert.match(await page.locator('.sweep .took').textContent(), /\d+ ms/);
});
