// End-to-end: the page's own link (issue 17). The query string is written when
// what it says changes, never per frame: while the clock plays, the address bar is
// left alone (it keeps the moment play started) and written again once it stops.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dist, launch, open, serve } from './helpers.mjs';

let server;
let browser;
let base;

before(async () => {
  server = await serve(dist);
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

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
  const page = await open(t, browser, `${base}?scenario=golden`);
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

