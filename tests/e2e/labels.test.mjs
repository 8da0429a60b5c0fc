// Issue 32, item 5: a lane's words never overlap one another nor leave their
// picture, for each stream's shape with every algorithm's words, at a desktop and
// a phone width, as a link opens and later on; a pile of requests sent together is
// counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, useDist } from './helpers.mjs';

const site = useDist();

// Every algorithm's own words (now + τ, TAT, the current window, delay after, burst).
const EVERY = 'limiters=sliding_window_counter,gcra,nginx,leaky_queue,token_bucket,sliding_log_logs_blocked,fixed_window';

/** Each lane picture's visible words and the box of the picture they are in. */
function labels(page) {
  return page.locator('article.lane svg').evaluateAll((svgs) =>
    svgs.map((svg) => {
      const box = svg.getBoundingClientRect();
      const words = [...svg.querySelectorAll('text')]
        .filter((t) => !t.classList.contains('glyph') && t.getClientRects().length > 0)
        .map((t) => {
          const r = t.getBoundingClientRect();
          return { text: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height };
        })
        .filter((r) => r.w > 0 && r.text.trim());
      return { lane: svg.closest('article.lane').dataset.algorithm, cls: svg.getAttribute('class'), box: { x: box.x, y: box.y, w: box.width, h: box.height }, words };
    }),
  );
}

function problems(pictures) {
  const out = [];
  const overlap = (a, b) => a.x + 0.5 < b.x + b.w && b.x + 0.5 < a.x + a.w && a.y + 0.5 < b.y + b.h && b.y + 0.5 < a.y + a.h;
  for (const p of pictures) {
    for (const [i, a] of p.words.entries()) {
      if (a.x < p.box.x - 0.5 || a.x + a.w > p.box.x + p.box.w + 0.5) out.push(`${p.lane} ${p.cls}: "${a.text}" leaves its picture`);
      for (const b of p.words.slice(i + 1)) {
        if (overlap(a, b)) out.push(`${p.lane} ${p.cls}: "${a.text}" overlaps "${b.text}"`);
      }
    }
  }
  return out;
}

// Each stream's shape with every algorithm's words, late in the run; some at an
// earlier moment; and scenarios with their own lanes as their links open them.
// One page per width, each case a navigation in it (a few dozen loads in all).
const LATE = ['edge-burst', 'per-second', 'golden', 'ten-at-once', 'lab-c', 'poisson', 'swc-late', 'burst-then-drip'];
const CASES = {
  1280: [
    ...LATE.map((s) => `scenario=${s}&${EVERY}&t=30s`),
    ...['golden', '2x-rate'].map((s) => `scenario=${s}&${EVERY}&t=10.1s`),
    ...['edge-burst-demo', 'lab-a', 'lab-b', 'lab-e', 'float-edge', 'swc-early'].map((s) => `scenario=${s}`),
  ],
  390: LATE.map((s) => `scenario=${s}&${EVERY}&t=30s`),
};

for (const [width, cases] of Object.entries(CASES)) {
  test(`no lane's words overlap or leave their picture at ${width} px`, async (t) => {
    const found = [];
    const page = await open(t, site.browser, 'about:blank', { width: Number(width), height: 900 });
    for (const query of cases) {
      await page.goto(`${site.base}?${query}`);
      await page.locator('article.lane .marks .mark, article.lane .marks .col').first().waitFor();
      await page.locator('article.lane .gauge rect').first().waitFor();
      found.push(...problems(await labels(page)).map((p) => `${query}: ${p}`));
      // Let the page's own fetches (the folds' chunks, the lessons' texts) end
      // before it is left: a navigation would cancel them.
      await page.waitForLoadState('networkidle');
    }
    assert.deepEqual([...new Set(found)], []);
  });
}

test("a pile of requests sent together is counted: lab C's 12 at 0 s", async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=lab-c&t=1s`, { width: 390 });
  const pile = page.locator('article.lane').first().locator('.marks text.pile');
  await pile.waitFor();
  const text = await pile.textContent();
  const m = /^12 = (\d+)✓ \+ (\d+)✗$/.exec(text);
  assert.ok(m, text);
  const lane = page.locator('article.lane').first();
  const denied = await lane.locator('.marks .mark[data-decision="deny"]').evaluateAll((ms) => ms.filter((x) => x.dataset.t === '0').length);
  assert.equal(Number(m[2]), denied);
  // Before the clock reaches them, only how many.
  const before = await open(t, site.browser, `${site.base}?scenario=ten-at-once&t=0`, { width: 390 });
  const badge = before.locator('article.lane').first().locator('.marks text.pile');
  await badge.waitFor();
  assert.equal(await badge.evaluate((el) => el.getBoundingClientRect().width > 0), true);
});

test('the "Why?" table breaks no identifier in a 700 px column', async (t) => {
  const query = 'scenario=golden&limiters=sliding_window_counter,gcra,nginx,sliding_log_logs_blocked&t=12s&sel=7';
  const page = await open(t, site.browser, `${site.base}?${query}`, { width: 1280 });
  await page.locator('.trace table code').first().waitFor();
  await page.locator('.ratelab').first().evaluate((el) => {
    el.style.width = '700px';
  });
  const broken = await page.locator('.trace table code').evaluateAll((codes) => {
    const out = [];
    for (const code of codes) {
      const walk = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        for (const m of n.textContent.matchAll(/[A-Za-z_][A-Za-z0-9_.]*/g)) {
          const r = document.createRange();
          r.setStart(n, m.index);
          r.setEnd(n, m.index + m[0].length);
          const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
          if (lines.size > 1) out.push(m[0]);
        }
      }
    }
    return out;
  });
  assert.deepEqual(broken, []);
});
