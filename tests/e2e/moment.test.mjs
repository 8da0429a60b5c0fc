// Start where the action is (issue 31): the edge burst (every request between 9 and
// 11 s) opens just before its first request, as the engine (`ratelab trace`) times
// it, in an element and on the page without a lesson; an `at` attribute sets the
// moment, `autoplay` plays from there, and a bad `at` is the element's one-line
// notice, in its language. Under the strict CSP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRICT_CSP, dist, launch, open, serve } from './helpers.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = process.env.RATELAB_CLI ?? join(here, '..', '..', 'target', 'debug', 'ratelab');

/** "8.5 s", "10 s", "1 min 2 s"… as the engine prints times, in ms. */
function ms(label) {
  let total = 0;
  for (const [, n, unit] of label.matchAll(/([\d.]+)\s*(ms|min|s)\b/g)) {
    total += Number(n) * { ms: 1, s: 1000, min: 60000 }[unit];
  }
  return Math.round(total);
}

/** The time of a scenario's first request, from the engine's trace. */
function firstRequest(scenario) {
  const out = execFileSync(cli, ['trace'], { input: JSON.stringify({ scenario }), encoding: 'utf8' });
  const row = out.split('\n').find((l) => /^\s*0\s/.test(l));
  assert.ok(row, out);
  return ms(row.replace(/^\s*0\s+/, '').split(/\s{2,}/)[0]);
}

const el = (id, attrs) => `<rate-limit-playground id="${id}" scenario="edge-burst" compact ${attrs}></rate-limit-playground>`;
const HTML = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>moments</title>
  <script type="module" src="ratelab/rate-limit-playground.js"></script>
</head>
<body>
${el('edge', '')}
${el('at', 'at="10.4s"')}
${el('bad', 'at="soon"')}
${el('bad-vi', 'at="soon" lang="vi"')}
${el('bad-limit', 'limit="0"')}
${el('auto', 'autoplay')}
</body>
</html>`;

let server;
let site;
let browser;
let base;
let dir;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratelab-moment-'));
  await symlink(dist, join(dir, 'ratelab'));
  await writeFile(join(dir, 'moments.html'), HTML);
  await writeFile(join(dir, 'favicon.ico'), '');
  server = await serve(dir, { csp: STRICT_CSP });
  base = `http://127.0.0.1:${server.address().port}/`;
  // The page links its files from the site's root: dist/ served at /.
  site = await serve(dist, { csp: STRICT_CSP });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
  await new Promise((ok) => (site ? site.close(ok) : ok()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the edge burst opens just before its first request; at and autoplay are honoured', async (t) => {
  const first = firstRequest('edge-burst');
  assert.ok(first > 3000, `the edge burst starts late: ${first} ms`);
  // A tall viewport: every element is near it, so all of them mount.
  const page = await open(t, browser, `${base}moments.html`, { width: 960, height: 4000 });
  for (const id of ['edge', 'at', 'bad', 'bad-vi', 'bad-limit', 'auto']) {
    await page.locator(`#${id} article.lane`).first().waitFor();
  }
  const opened = ms(await page.locator('#edge output.now').textContent());
  assert.ok(opened < first && first - opened <= 1000, `opened at ${opened} ms, first request at ${first} ms`);
  // The moment is a whole ms, and the element's own link says it.
  const query = await page.locator('#edge').evaluate((e) => e.query);
  assert.match(query, /(^|&)t=[\d.]+s(&|$)/);
  // The view is zoomed to the requests (closer than 1×).
  const zoom = page.locator('#edge output.zoom-level');
  if ((await zoom.count()) > 0) assert.notEqual(await zoom.textContent(), '1×');
  // Nothing has arrived yet; the next step is the first request.
  await page.locator('#edge button.next').click();
  assert.equal(ms(await page.locator('#edge output.now').textContent()), first);

  // at="10.4s": that moment, no notice.
  assert.equal(ms(await page.locator('#at output.now').textContent()), 10400);
  assert.equal(await page.locator('#at .notices').count(), 0);

  // A bad `at`: one notice line, as a bad `limit` gets, and the stream's own opening.
  const bad = await page.locator('#bad .notices li').allTextContents();
  assert.equal(bad.length, 1);
  assert.match(bad[0], /^at=soon: \S/);
  assert.equal(ms(await page.locator('#bad output.now').textContent()), opened);
  const badLimit = await page.locator('#bad-limit .notices li').allTextContents();
  assert.equal(badLimit.length, 1);
  assert.match(badLimit[0], /^limit=0: \S/);
  // In Vietnamese, in Vietnamese.
  const vi = await page.locator('#bad-vi .notices li').allTextContents();
  assert.equal(vi.length, 1);
  assert.match(vi[0], /^at=soon: \S/);
  assert.notEqual(vi[0], bad[0]);
  assert.equal(await page.locator('#bad-vi .ratelab').getAttribute('lang'), 'vi');

  // autoplay: the clock runs from the opening moment without a click.
  await page.waitForFunction(
    (from) => {
      const e = document.querySelector('#auto');
      const text = e.shadowRoot.querySelector('output.now')?.textContent ?? '';
      const n = Number((text.match(/([\d.]+)\s*s/) ?? [])[1]);
      return n * 1000 > from;
    },
    opened,
  );
});

test('the page without a lesson opens the edge burst just before its first request', async (t) => {
  const first = firstRequest('edge-burst');
  const page = await open(t, browser, `http://127.0.0.1:${site.address().port}/?scenario=edge-burst`);
  await page.locator('article.lane').first().waitFor();
  const opened = ms(await page.locator('output.now').first().textContent());
  assert.ok(opened < first && first - opened <= 1000, `opened at ${opened} ms, first request at ${first} ms`);
  // A named moment wins.
  const at = await open(t, browser, `http://127.0.0.1:${site.address().port}/?scenario=edge-burst&t=2s`);
  await at.locator('article.lane').first().waitFor();
  assert.equal(ms(await at.locator('output.now').first().textContent()), 2000);
});
