// The example docs page, served with a strict Content-Security-Policy: the custom
// element (two of them), the iframe and the JS API all work, respond to clicks, and
// nothing violates the policy (helpers.mjs fails the test on any violation or error).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { STRICT_CSP, artifacts, dist, launch, open, serve } from './helpers.mjs';

let server;
let browser;
let base;

before(async () => {
  server = await serve(dist, { csp: STRICT_CSP });
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

test('the docs page: two elements, an iframe and the API under a strict CSP', async (t) => {
  const page = await open(t, browser, `${base}docs-example.html`);
  const edge = page.locator('#edge');
  const queue = page.locator('#queue');
  // Playwright's CSS locators pierce the open shadow roots.
  await edge.locator('article.lane').first().waitFor();
  await queue.locator('article.lane').first().waitFor();
  assert.deepEqual(
    await edge.locator('article.lane').evaluateAll((a) => a.map((x) => x.dataset.algorithm)),
    ['fixed_window', 'sliding_log', 'token_bucket'],
  );
  // The page's loud button style does not reach inside.
  const bg = await edge.locator('button.play').evaluate((b) => getComputedStyle(b).backgroundColor);
  assert.notEqual(bg, 'rgb(192, 57, 43)');

  // A click steps one element; the other keeps its own clock.
  await edge.locator('button.next').click();
  await edge.locator('output.now', { hasText: '9 s' }).waitFor();
  assert.equal(await queue.locator('output.now').textContent(), '0 s');
  // Keys work on a focused element, and only there.
  await queue.locator('.ratelab').focus();
  await page.keyboard.press('ArrowRight');
  await queue.locator('output.now', { hasText: '2 s' }).waitFor();
  assert.equal(await edge.locator('output.now').textContent(), '9 s');
  // Embeds never write the page's URL.
  assert.equal(new URL(page.url()).search, '');

  // The iframe: it renders, answers a click, and sized itself.
  const frame = page.frameLocator('#lab-c');
  await frame.locator('article.lane').first().waitFor();
  assert.equal(await frame.locator('article.lane').count(), 5); // lab C: two token buckets, GCRA, the leaky queue, nginx
  await frame.locator('button.next').click();
  await frame.locator('output.now', { hasText: /[1-9]/ }).waitFor();
  await page.waitForFunction(() => document.querySelector('#lab-c').offsetHeight > 500);
  // Both iframes are sized by embed-resize.js, each to its own content (the second
  // has three lanes, the first four), under the policy.
  const golden = page.frameLocator('#golden-frame');
  await golden.locator('article.lane').first().waitFor();
  await page.waitForFunction(() =>
    [...document.querySelectorAll('iframe.playground')].every((f) => f.dataset.ratelabSized === 'sized'),
  );
  const sizes = await page.evaluate(() =>
    [...document.querySelectorAll('iframe.playground')].map((f) => {
      const body = f.contentDocument.body.getBoundingClientRect().height;
      return { frame: f.getBoundingClientRect().height, body };
    }),
  );
  for (const { frame, body } of sizes) assert.ok(Math.abs(frame - body) <= 2, JSON.stringify(sizes));
  assert.ok(sizes[0].frame > sizes[1].frame, JSON.stringify(sizes));
  // theme=dark in the second frame's URL.
  assert.equal(await golden.locator('.ratelab').getAttribute('data-theme'), 'dark');

  // The API filled the table (once scrolled to: its chunk is fetched then) and
  // caught the bad config.
  await page.locator('#api-table').scrollIntoViewIfNeeded();
  await page.locator('#api-table tbody tr').nth(2).waitFor();
  const first = await page.locator('#api-table tbody tr').first().locator('td').allTextContents();
  assert.deepEqual(first, ['fixed_window', '✓✓✓✓✓✗✓✓✓✓✓✗', '10', '9']);
  assert.equal(
    await page.locator('#api-error').textContent(),
    'limiters[0].limit: must be a finite number, got NaN',
  );
  await page.locator('#api-run').click();
  await page.locator('#api-table tbody tr td', { hasText: '✓✓✓✗✗✗✓✓✓✗✗✗' }).first().waitFor();

  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'docs-example.png'), fullPage: true });
});

test('embed.html works on its own under the policy', async (t) => {
  const page = await open(t, browser, `${base}embed.html?scenario=edge-burst&compact=1&lang=vi`);
  await page.locator('article.lane').first().waitFor();
  assert.equal(await page.locator('.ratelab').getAttribute('lang'), 'vi');
  assert.equal(await page.locator('.setup').count(), 0);
});

test('every embed links to the full playground at what the reader sees', async (t) => {
  // The element (docs-example.html's first): its ↗ link goes to index.html beside
  // its script, with the state the reader reached, made when the link is reached.
  const page = await open(t, browser, `${base}docs-example.html`);
  const edge = page.locator('#edge');
  await edge.locator('article.lane').first().waitFor();
  await edge.locator('button.next').click();
  await edge.locator('output.now', { hasText: '9 s' }).waitFor();
  const link = edge.locator('a.open-full');
  assert.equal(await link.getAttribute('target'), '_blank');
  assert.match(await link.getAttribute('aria-label'), /full playground/);
  await link.focus();
  const href = new URL(await link.getAttribute('href'));
  assert.equal(href.origin + href.pathname, `${base}index.html`);
  const query = href.searchParams;
  assert.equal(query.get('scenario'), 'edge-burst');
  assert.equal(query.get('t'), '9s');
  // Opened, the full page shows the same lanes at the same moment, with its setup.
  const full = await open(t, browser, href.href);
  await full.locator('article.lane').first().waitFor();
  assert.deepEqual(
    await full.locator('article.lane').evaluateAll((a) => a.map((x) => x.dataset.algorithm)),
    await edge.locator('article.lane').evaluateAll((a) => a.map((x) => x.dataset.algorithm)),
  );
  assert.equal(await full.locator('.controls output.now').textContent(), '9 s');
  assert.equal(await full.locator('a.open-full').count(), 0, 'the page is the full playground');

  // The iframe links to the index.html beside embed.html, in its language.
  const frame = await open(t, browser, `${base}embed.html?scenario=lab-c&lang=vi`);
  const framed = frame.locator('a.open-full');
  await framed.waitFor();
  assert.match(await framed.getAttribute('aria-label'), /trang đầy đủ/);
  await framed.focus();
  const framedHref = new URL(await framed.getAttribute('href'));
  assert.equal(framedHref.origin + framedHref.pathname, `${base}index.html`);
  assert.equal(framedHref.searchParams.get('scenario'), 'lab-c');
  assert.equal(framedHref.searchParams.get('lang'), 'vi');

  // "" is no link; a javascript: address is none either (the console says why).
  const linkMade = (p) =>
    p.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/full-link.js') && e.responseEnd > 0));
  const none = await open(t, browser, `${base}embed.html?scenario=lab-c&playground=`);
  await none.locator('article.lane').first().waitFor();
  await linkMade(none);
  await none.evaluate(() => new Promise((ok) => setTimeout(ok, 0)));
  assert.equal(await none.locator('a.open-full').count(), 0);
  const hostile = await open(t, browser, 'about:blank');
  const warned = hostile.waitForEvent('console', {
    predicate: (m) => m.text().includes('playground=javascript:alert(1): expected an http(s) address'),
  });
  await hostile.goto(`${base}embed.html?scenario=lab-c&playground=javascript:alert(1)&theme=pink`);
  await hostile.locator('article.lane').first().waitFor();
  await warned;
  assert.equal(await hostile.locator('a.open-full').count(), 0);
  // An embed's notices are in its own words: its settings, not "the link".
  const notices = await hostile.locator('.notices').textContent();
  assert.match(notices, /theme=pink: expected light, dark or auto/);
  assert.match(notices, /this playground's settings/);
  assert.doesNotMatch(notices, /in the link/);
});
