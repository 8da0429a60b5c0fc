// The service view of a built page against the command line: each card's numbers
// must be the `ratelab simulate` report of the same scenario (the fixture
// tests/e2e/fixtures/retry-storm.report.json; crates/web/tests/fixture.rs checks it
// is current). A page built without the service model (the web crate's `services`
// feature, off while the bundle has no room for it) does not offer the scenario:
// the test then says so and is skipped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifacts, dist, fixtures, launch, open, serve } from './helpers.mjs';

let server;
let browser;
let base;
let report;

before(async () => {
  server = await serve(dist);
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
  report = JSON.parse(await readFile(join(fixtures, 'retry-storm.report.json'), 'utf8'));
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

/** Each card's numbers, from data-value. */
function cards(page) {
  return page.locator('.services article.service').evaluateAll((cards) =>
    cards.map((c) => {
      const v = (s) => Number(c.querySelector(s).dataset.value);
      return {
        id: c.querySelector('h3').textContent,
        demand: v('.service-numbers .demand'),
        offered: v('.service-numbers .offered'),
        amplification_permille: v('.amplification'),
        passed: v('.service-numbers .passed'),
        status_429: v('.service-numbers .s429'),
        goodput: {
          first_try: v('.first-try'),
          after_retry: v('.after-retry'),
          gave_up: v('.goodput .gave-up'),
        },
        latency_ms: ['p50', 'p95', 'p99'].map((p) => v(`.latency .${p}`)),
        max_in_1s: v('.service-numbers .max-in-1s'),
        seconds: v('.seconds'),
        clients: [...c.querySelectorAll('.clients tbody tr')].map((r) => ({
          name: r.querySelector('th').textContent,
          share_permille: Number(r.querySelector('.share').dataset.value),
          rate_429_permille: Number(r.querySelector('.rate-429').dataset.value),
        })),
        ticks: c.querySelectorAll('.attempts .tick').length,
      };
    }),
  );
}

test('the retry storm on the page is the command line\'s report', async (t) => {
  const page = await open(t, browser, `${base}?scenario=retry-storm`);
  const offered = await page.locator('select[name="scenario"] option[value="retry-storm"]').count();
  if (offered === 0) {
    t.skip('this page was built without the service model (web feature "services")');
    return;
  }
  await page.locator('.services article.service').first().waitFor();
  const got = await cards(page);
  const want = report.services.map((s) => {
    const y = s.yardstick;
    return {
      id: s.id,
      demand: y.demand,
      offered: y.offered,
      amplification_permille: y.amplification_permille,
      passed: y.passed,
      status_429: y.status_429,
      goodput: y.goodput,
      latency_ms: [y.latency_ms.p50, y.latency_ms.p95, y.latency_ms.p99],
      max_in_1s: y.max_in_1s,
      seconds: y.per_second.offered.length,
      clients: y.clients.map((c) => ({
        name: c.name,
        share_permille: c.share_permille,
        rate_429_permille: c.rate_429_permille,
      })),
      ticks: s.attempts.t.length,
    };
  });
  assert.deepEqual(got, want);
  // Retrying at once amplifies the load more than exponential backoff with jitter.
  assert.ok(got[0].amplification_permille > got[got.length - 1].amplification_permille);
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'service-retry-storm.png'), fullPage: true });
});
