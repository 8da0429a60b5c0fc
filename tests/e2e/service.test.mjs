// The service view (a chunk of the page, fetched when a service scenario is first
// shown: crates/web/src/view/chunks.rs) against the command line.
//
// The report the cards are compared with is made here, by the command line
// (`ratelab simulate`, built by `cargo test --workspace` before this step runs),
// from the same scenario the link opens.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifacts, open, useDist } from './helpers.mjs';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const site = useDist();
let report;

before(() => {
  const cargo = process.env.CARGO ?? 'cargo';
  const out = spawnSync(cargo, ['run', '--quiet', '-p', 'ratelab-cli', '--', 'simulate'], {
    cwd: root,
    input: '{"scenario": "retry-storm"}',
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  assert.equal(out.status, 0, `ratelab simulate failed: ${out.error ?? out.stderr}`);
  report = JSON.parse(out.stdout);
  assert.ok(report.services.length > 1, 'the retry storm has several variants');
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

test("the retry storm on the page is the command line's report", async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=retry-storm`);
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

test("a click on an attempt follows it: the panel says what the command line's report says", async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=retry-storm`);
  const card = page.locator('.services article.service').nth(2);
  await card.waitFor();
  const a = report.services[2].attempts;
  // The card opens on the first refused attempt.
  const first = a.status.findIndex((s) => s !== 200);
  assert.equal(await card.locator('.refusal').getAttribute('data-index'), String(first));
  // Retry-After with jitter: its client retries once it has waited.
  const retry = a.retry[first];
  assert.ok(retry !== null, 'the first refusal is retried');
  // A real click on that retry's tick in the picture.
  const plot = card.locator('.attempts-strip .plot');
  await plot.scrollIntoViewIfNeeded();
  const box = await card.locator(`.attempts .tick[data-i="${retry}"]`).boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(
    ([i]) => document.querySelectorAll('.services article.service')[2].querySelector('.refusal').dataset.index === i,
    [String(retry)],
  );
  // The page's time label: seconds, up to three decimals.
  const s = (ms) => `${ms / 1000} s`;
  const name = report.services[2].yardstick.clients[a.client[retry]].name;
  const which = await card.locator('.refusal .which').textContent();
  assert.ok(which.startsWith(`${name} · ${s(a.t[retry])} · attempt ${a.attempt[retry]} of 5 · #${retry}`), which);
  assert.equal(await card.locator('.refusal .response').getAttribute('data-status'), String(a.status[retry]));
  const next = await card.locator('.refusal .next').textContent();
  if (a.status[retry] === 200) {
    assert.equal(next, 'then: nothing more: the request succeeded');
  } else {
    const r = a.retry[retry];
    assert.ok(r === null ? next.startsWith('then: gives up') : next.startsWith(`then: retries at ${s(a.t[r])}: `), next);
  }
  // The keyboard reaches the same panel: focus "later attempt", press Enter.
  await card.locator('.refusal .later').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    ([i]) => document.querySelectorAll('.services article.service')[2].querySelector('.refusal').dataset.index === i,
    [String(retry + 1)],
  );
  await mkdir(artifacts, { recursive: true });
  await card.screenshot({ path: join(artifacts, 'service-followed.png') });
});

test('a service card in a 700 px column lays out narrow in a wide window (container queries)', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=retry-storm`, { width: 1280 });
  await page.locator('.services article.service').first().waitFor();
  const columns = () =>
    page.locator('.service-numbers').first().evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
  assert.equal(await columns(), 2, 'label and number side by side at 1280 px');
  await page.locator('.ratelab').first().evaluate((el) => {
    el.style.width = '700px';
  });
  assert.equal(await columns(), 1, 'each number under its label in 700 px');
  const overflow = await page.locator('.services').evaluate((el) => el.scrollWidth - el.clientWidth);
  assert.ok(overflow <= 0, `nothing wider than the column: ${overflow}`);
});

test('picking a service scenario opens it in the page, and back to limiters', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=golden&lang=vi&speed=2`);
  await page.locator('.lane').first().waitFor();
  await page.selectOption('select[name="scenario"]', 'noisy-neighbour');
  await page.locator('.services article.service').first().waitFor();
  await page.waitForURL(/scenario=noisy-neighbour/);
  const url = new URL(page.url());
  assert.equal(url.pathname, '/');
  assert.equal(url.searchParams.get('scenario'), 'noisy-neighbour');
  assert.equal(url.searchParams.get('lang'), 'vi');
  assert.equal(url.searchParams.get('speed'), '2');
  assert.equal(await page.locator('.lane').count(), 0);
  await page.selectOption('select[name="scenario"]', 'golden');
  await page.locator('.lane').first().waitFor();
  assert.equal(await page.locator('.services article.service').count(), 0);
  // Once fetched, the service view's chunk is not fetched again.
  let fetched = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/split_service.wasm')) fetched += 1;
  });
  await page.selectOption('select[name="scenario"]', 'retry-storm');
  await page.locator('.services article.service').first().waitFor();
  assert.equal(fetched, 0);
});

test('a link to a service scenario opens it with every setting', async (t) => {
  const query = 'scenario=service&instances=3&store=local&limiters=sliding_log&lang=vi';
  const page = await open(t, site.browser, `${site.base}?${query}#x`);
  await page.locator('.services article.service').first().waitFor();
  const url = new URL(page.url());
  assert.equal(url.pathname, '/');
  for (const [k, v] of new URLSearchParams(query)) assert.equal(url.searchParams.get(k), v, k);
  assert.equal(await page.locator('.services article.service').count(), 1);
  assert.equal(await page.locator('input[name="service.instances"]').inputValue(), '3');
  assert.equal(await page.locator('input[name="service.store"], select[name="service.store"]').inputValue(), 'local');
  assert.equal(await page.locator('.ratelab').first().getAttribute('lang'), 'vi');
  assert.equal(await page.locator('.notices').count(), 0);
});

test('a hostile service link: one line per bad setting, the service with its defaults', async (t) => {
  const bad = encodeURIComponent('<img src=x onerror=alert(1)>');
  const page = await open(t, site.browser, `${site.base}?scenario=service&outage=${bad}&instances=999&retry=${bad}`);
  await page.locator('.services article.service').first().waitFor();
  const lines = await page.locator('.notices li').allTextContents();
  assert.equal(lines.length, 3, lines.join('\n'));
  for (const key of ['outage=', 'instances=999', 'retry=']) {
    assert.ok(lines.some((l) => l.startsWith(key)), `a notice for ${key}: ${lines.join('\n')}`);
  }
  assert.ok(lines.every((l) => !l.includes('\n')), 'each notice is one line');
  // The text is shown, never parsed: no element came from the link.
  assert.equal(await page.locator('.ratelab img').count(), 0);
  assert.equal(await page.locator('input[name="service.instances"]').inputValue(), '1');
});

test('the embed shows a service scenario itself', async (t) => {
  const page = await open(t, site.browser, `${site.base}embed.html?scenario=retry-storm&seed=7`);
  await page.locator('.services article.service').first().waitFor();
  assert.equal(new URL(page.url()).pathname, '/embed.html');
  assert.equal(await page.locator('.notices').count(), 0);
  assert.equal(await page.locator('.service-elsewhere').count(), 0);
});

// Issue 32, item 6: a service scenario opens on its cards, says what to compare,
// draws its time and its outage, and speaks the page's language.

test('a service link opens on its cards, with what to compare, at 1280 and 390 px', async (t) => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    for (const lang of ['en', 'vi']) {
      const page = await open(t, site.browser, `${site.base}?scenario=store-outage&lang=${lang}`, { width, height });
      const card = page.locator('.services article.service').first();
      await card.waitFor();
      await page.locator('.lessons details.catalog').waitFor({ state: 'attached' });
      const where = `${width} px, ${lang}`;
      assert.equal(await page.locator('details.setup-fold').evaluate((d) => d.open), false, `setup folded (${where})`);
      assert.equal(await page.locator('details.catalog').evaluate((d) => d.open), false, `catalog folded (${where})`);
      const top = await card.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
      assert.ok(top < height - 40, `the first card starts at ${top} px, in the first ${height} px (${where})`);
      const compare = (await page.locator('.services .compare').textContent()).trim();
      assert.ok(compare.length > 40 && compare.endsWith('.'), `one sentence to compare: ${compare}`);
      // The tagline speaks of the scenario's own limit (10 per 1 s), not 5 per 10 s.
      const tagline = await page.locator('.masthead .tagline').textContent();
      assert.ok(tagline.includes('10') && !tagline.includes('5 ') && tagline.includes('1 s'), tagline);
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, `service-first-screen-${width}-${lang}.png`) });
    }
  }
  // Another scenario picked in the setup leaves the setup as the learner had it.
  const page = await open(t, site.browser, `${site.base}?scenario=golden`);
  await page.locator('.lane').first().waitFor();
  await page.selectOption('select[name="scenario"]', 'store-outage');
  await page.locator('.services article.service').first().waitFor();
  assert.equal(await page.locator('details.setup-fold').evaluate((d) => d.open), true);
});

test('the charts have a time axis in seconds and the outage drawn with its label', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=store-outage`);
  const cards = page.locator('.services article.service');
  await cards.first().waitFor();
  for (let i = 0; i < (await cards.count()); i += 1) {
    const card = cards.nth(i);
    const seconds = Number(await card.locator('.per-second-chart .seconds').getAttribute('data-value'));
    const ticks = await card.locator('.per-second-chart .time-axis .tick text').allTextContents();
    assert.equal(ticks[0], '0 s');
    assert.equal(ticks.at(-1), `${seconds} s`, ticks.join(' '));
    assert.ok(ticks.length >= 3, ticks.join(' '));
    assert.ok((await card.locator('.attempts-strip .time-axis .tick text').count()) >= 3);
    // The 20–40 s outage, shaded where it was: a third of a 60 s chart.
    const chart = await card.locator('.per-second-chart .chart').boundingBox();
    const shade = await card.locator('.per-second-chart .outage rect').boundingBox();
    assert.ok(Math.abs(shade.x - chart.x - (chart.width * 20) / seconds) < 2, `${shade.x} in ${chart.x}+${chart.width}`);
    assert.ok(Math.abs(shade.width - (chart.width * 20) / seconds) < 2);
    assert.equal(await card.locator('.per-second-chart .outage-span text').textContent(), 'store down 20 s–40 s');
    assert.equal(await card.locator('.attempts-strip .outage rect').count(), 1);
    // Every label inside its picture.
    for (const text of await card.locator('.time-axis text').all()) {
      const b = await text.boundingBox();
      const svg = await text.evaluate((el) => {
        const r = el.closest('.axis').getBoundingClientRect();
        return { x: r.x, w: r.width };
      });
      assert.ok(b.x >= svg.x - 1 && b.x + b.width <= svg.x + svg.w + 1, `${await text.textContent()} inside its picture`);
    }
  }
  const quiet = await open(t, site.browser, `${site.base}?scenario=noisy-neighbour`);
  await quiet.locator('.services article.service').first().waitFor();
  assert.equal(await quiet.locator('.services .outage').count(), 0);
  assert.ok((await quiet.locator('.services .time-axis text').count()) > 0);
});

/** The text of every text node in the service view and the tagline, trimmed. */
function words(page) {
  return page.evaluate(() => {
    const out = [];
    for (const root of document.querySelectorAll('.services, .masthead .tagline')) {
      const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const s = n.textContent.trim();
        if (s) out.push(s);
      }
      for (const el of root.querySelectorAll('[aria-label], [title]')) {
        out.push(el.getAttribute('aria-label') ?? el.getAttribute('title'));
      }
    }
    return out;
  });
}

// Protocol words a Vietnamese developer reads as they are.
const SAME_IN_VI = new Set(['429 Too Many Requests', 'Retry-After', '200 OK', '503 Service Unavailable', 'ratelab', 'Retry-After: 1']);

test('in Vietnamese the service view has no English words left', async (t) => {
  const scenarios = ['noisy-neighbour', 'retry-storm', 'instances', 'store-outage', 'page-load', 'stacked-limits', 'expensive-route', 'service'];
  for (const scenario of scenarios) {
    const en = await open(t, site.browser, `${site.base}?scenario=${scenario}&lang=en`);
    await en.locator('.services article.service').first().waitFor();
    const english = new Set((await words(en)).filter((s) => /[A-Za-z]{3,}/.test(s)));
    const vi = await open(t, site.browser, `${site.base}?scenario=${scenario}&lang=vi`);
    await vi.locator('.services article.service').first().waitFor();
    // Protocol words and numbers aside ("0.808 s: 429, Retry-After: 1").
    const bare = (s) => s.replace(/Retry-After|Too Many Requests|Service Unavailable|\b[A-Z]{2,}\b|\d+(\.\d+)?\s?(ms|s)\b/g, '');
    const left = (await words(vi)).filter((s) => english.has(s) && !SAME_IN_VI.has(s) && /[A-Za-z]{3,}/.test(bare(s)));
    assert.deepEqual(left, [], `${scenario}: English left in vi`);
  }
});

test('"Your service": cards named by their limiters, errors in one line without a path', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=service&limiters=token_bucket,sliding_log`);
  const cards = page.locator('.services article.service');
  await cards.first().waitFor();
  const titles = await cards.locator('h3').allTextContents();
  assert.deepEqual(titles, ['Token bucket', 'Sliding log'], titles.join(' | '));
  // A demand the engine refuses: one line where the services would be (the
  // service model is in the view's chunk, not in the link's reader), no JSON path,
  // in en and vi; the link's knobs stay, to be changed.
  for (const lang of ['en', 'vi']) {
    const huge = await open(t, site.browser, `${site.base}?scenario=service&clients=100&load=10&duration=10m&lang=${lang}`);
    const line = huge.locator('.services p.error');
    await line.waitFor();
    const text = (await line.textContent()).trim();
    assert.ok(text.length > 0 && !/services\[|clients\[|\]\.|\bservices\./.test(text) && !text.includes('\n'), text);
    assert.ok(lang === 'vi' ? text.startsWith('các khách sẽ gửi khoảng') : text.startsWith('the clients would send about'), text);
    assert.equal(await huge.locator('.services article.service').count(), 0, text);
    assert.equal(await huge.locator('.notices li').count(), 0, text);
    assert.equal(await huge.locator('input[name="service.clients"]').inputValue(), '100', text);
  }
  // A refused choice does not stay in its select: the control shows the value in force.
  const knobs = await open(t, site.browser, `${site.base}?scenario=service&clients=100&load=2&duration=10m&attempts=20&retry=none`);
  await knobs.locator('select[name="service.retry"]').waitFor();
  await knobs.selectOption('select[name="service.retry"]', 'immediately');
  const error = await knobs.locator('label.field:has(select[name="service.retry"]) .error').textContent();
  if (error) {
    assert.equal(await knobs.locator('select[name="service.retry"]').inputValue(), 'none', error);
    assert.ok(!/services\[|clients\[/.test(error), error);
  } else {
    assert.equal(await knobs.locator('select[name="service.retry"]').inputValue(), 'immediately');
  }
});
