// End-to-end: how the page loads. Under the strict Content-Security-Policy, the
// HTML alone starts every download the app needs (the loader, the glue, the wasm)
// without waiting for page.js; it shows its frame (the title, a placeholder lane)
// before any script has run; the glue's fetch of the wasm is the preload's (one
// request), and the app replaces the placeholder with the first lane.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, dist, launch, recordViolations, serve } from './helpers.mjs';

let server;
let browser;
let url;

before(async () => {
  server = await serve(dist, { csp: STRICT_CSP });
  url = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

test('the HTML preloads everything in parallel and draws its frame before any script', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  t.after(() => context.close());
  await context.addInitScript(recordViolations);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // Chromium warns when a preload is not used (e.g. its credentials mode differs
  // from the glue's fetch) or is used twice.
  page.on('console', (m) => {
    if (m.type() === 'error' || /preload/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));

  // page.js is held back: whatever is requested meanwhile, the HTML asked for.
  let release;
  const held = new Promise((ok) => (release = ok));
  await page.route('**/page.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(url, { waitUntil: 'commit' });
  await Promise.all(
    ['/ratelab.js', '/ratelab-web.js', '/ratelab-web_bg.wasm'].map((p) =>
      page.waitForRequest((r) => new URL(r.url()).pathname === p),
    ),
  );
  await page.locator('h1', { hasText: 'ratelab' }).waitFor();
  assert.ok(await page.locator('.lane-placeholder').isVisible(), 'a placeholder lane before the app');
  assert.equal(await page.locator('article.lane').count(), 0);

  release();
  await page.locator('article.lane').first().waitFor();
  assert.equal(await page.locator('.lane-placeholder').count(), 0, 'the app replaced the placeholder');
  // The first module once (the panels' chunks come later, chunks.test.mjs).
  const first = (p) => p.endsWith('/ratelab-web_bg.wasm');
  assert.equal(requested.filter(first).length, 1, 'one request for the wasm');
  const resources = await page.evaluate(() =>
    performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/ratelab-web_bg.wasm')).length,
  );
  assert.equal(resources, 1, 'the glue used the preloaded wasm');
  problems.push(...(await page.evaluate(() => window.__violations)).map((v) => `CSP violation: ${v}`));
  assert.deepEqual(problems, []);
});
