// A crafted link or embed attributes carrying markup in every parameter: nothing
// is inserted and no script runs, on the page, in embed.html and inside the custom
// element's Shadow DOM. Served without a Content-Security-Policy, so that an
// injected handler would run if markup ever got in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, useDist } from './helpers.mjs';

const site = useDist();

// Every parameter a link takes (docs/playground.md, "The URL is the view"), and a key that is
// markup itself.
const KEYS = [
  'scenario', 'limiters', 'limit', 'period', 'limit.0', 'period.0', 'burst.0', 'delay.0',
  'nodelay.0', 'window', 'requests', 'seed', 'load', 'clients', 'duration', 't', 'speed',
  'lang', 'sel', 'hl', '<b>key</b>',
];
const MARKUP =
  '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>' +
  '<svg onload="window.__pwned=3"></svg><iframe srcdoc="<script>parent.__pwned=4</script>"></iframe>';
const query = (scenario) =>
  [['scenario', scenario], ...KEYS.filter((k) => k !== 'scenario').map((k) => [k, MARKUP])]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');

/** Elements markup would have made under the root `selector` names (in the page). */
function inserted(selector) {
  const root = document.querySelector(selector);
  const found = [...root.querySelectorAll('img, script, iframe, b, foreignObject')].map((e) => e.tagName);
  const svgs = [...root.querySelectorAll('svg')].filter((s) => !['timeline', 'gauge', 'level'].includes(s.getAttribute('class')));
  return [...found, ...svgs.map(() => 'svg')];
}

async function settled(page) {
  // Time for an image's onerror or a frame's script, were there any.
  await page.waitForTimeout(300);
}

for (const scenario of ['golden', 'custom', 'manual']) {
  test(`a link with markup in every parameter (${scenario}) inserts nothing`, async (t) => {
    const page = await open(t, site.browser, `${site.base}?${query(scenario)}`);
    await page.locator('article.lane').first().waitFor();
    await page.locator('.notices').waitFor();
    await settled(page);
    assert.deepEqual(await page.evaluate(inserted, 'main'), []);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.match(await page.locator('.notices').textContent(), /<img src=x/);
  });
}

test('embed.html with markup in every parameter inserts nothing', async (t) => {
  const page = await open(t, site.browser, `${site.base}embed.html?${query('golden')}&compact=1`);
  await page.locator('article.lane').first().waitFor();
  await settled(page);
  assert.deepEqual(await page.evaluate(inserted, '#embed'), []);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
});

test('the custom element with markup in every attribute inserts nothing in its Shadow DOM', async (t) => {
  // A host page of our own, served from the same origin as dist/.
  const host = `${site.base}hostile-host.html`;
  const context = await site.browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  t.after(() => context.close());
  await page.route(host, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: '<!DOCTYPE html><html><head><script type="module" src="./rate-limit-playground.js"></script></head><body></body></html>',
    }),
  );
  await page.goto(host);
  await page.evaluate(
    ({ keys, markup }) => {
      for (const scenario of ['golden', 'custom']) {
        const el = document.createElement('rate-limit-playground');
        el.setAttribute('scenario', scenario);
        for (const k of keys) {
          // A key that is not a valid attribute name cannot be set: skip it.
          try {
            if (k !== 'scenario') el.setAttribute(k, markup);
          } catch {}
        }
        document.body.append(el);
      }
    },
    { keys: KEYS, markup: MARKUP },
  );
  await page.locator('rate-limit-playground >> article.lane').first().waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('rate-limit-playground')].every((e) => e.shadowRoot?.querySelector('article.lane')));
  await settled(page);
  const found = await page.evaluate(() =>
    [...document.querySelectorAll('rate-limit-playground')].map((e) =>
      [...e.shadowRoot.querySelectorAll('img, script, iframe, b, foreignObject')].map((x) => x.tagName),
    ),
  );
  assert.deepEqual(found, [[], []]);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  const notices = await page.evaluate(() => document.querySelector('rate-limit-playground').shadowRoot.querySelector('.notices').textContent);
  assert.match(notices, /<img src=x/);
  assert.deepEqual(problems, []);
});
