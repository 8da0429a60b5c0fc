// End-to-end soak (issue 17, long use): rapid sends and scrubbing with the clock
// playing at 16x, and the renderer's memory must stay flat. Ten minutes of this
// used to grow the renderer from 374 MB to 2.3 GB (markup rewritten far more
// often than it changed; a forced GC recovered it).
//
// Short in CI (RATELAB_SOAK_SECONDS, default 70); run it long with
// RATELAB_SOAK_SECONDS=600. Memory is the resident set of the browser's renderer
// processes (Linux /proc), sampled every second after a warm-up; the test fails
// if it grows by more than GROWTH_MB_PER_MIN on average (a least-squares slope,
// so a collection's sawtooth does not count) — a memory bound, not a time one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dist, launch, open, serve } from './helpers.mjs';

// The first ~30 s grow (the stream, the JIT, caches: 445 → 515 MB in a 150 s run),
// then the renderer is flat (505 ± 5 MB to the end): the trend is measured after.
const SECONDS = Number(process.env.RATELAB_SOAK_SECONDS ?? 70);
const WARMUP_S = 30;
// The old page grew about 200 MB a minute under this load.
const GROWTH_MB_PER_MIN = 40;

// A flag no other Chromium has, so that only this test's renderers are counted
// (other tests, or other people's browsers, may run on the same machine).
const MARK = `--ratelab-soak=${process.pid}-${Date.now()}`;

let server;
let browser;
let base;

before(async () => {
  server = await serve(dist);
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch([MARK]);
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // a process that ended while we looked
  }
}

/** Whether `pid` descends from the browser process started with MARK. */
function ours(pid) {
  for (let p = pid, hops = 0; p > 1 && hops < 8; hops++) {
    if (read(`/proc/${p}/cmdline`).split('\0').includes(MARK)) return true;
    // The parent is the fourth field of stat, after "pid (comm) state".
    const stat = read(`/proc/${p}/stat`);
    p = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return false;
}

/** The resident set of this test's Chromium renderer processes, MB (Linux only). */
function rendererMb() {
  let kb = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    if (!read(`/proc/${pid}/cmdline`).includes('--type=renderer') || !ours(Number(pid))) continue;
    const rss = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`));
    kb += Number(rss?.[1] ?? 0);
  }
  return kb / 1024;
}

/** Least-squares slope of `ys` over `xs`. */
function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

test(`renderer memory stays flat over ${SECONDS} s of rapid sends and scrubbing`, { timeout: (SECONDS + 120) * 1000 }, async (t) => {
  if (process.platform !== 'linux') {
    t.skip('reads /proc');
    return;
  }
  const page = await open(t, browser, `${base}?scenario=manual&speed=16`);
  await page.locator('article.lane').first().waitFor();
  await page.locator('button.play').click();
  const samples = [];
  const started = Date.now();
  let round = 0;
  // How many requests the page's stream holds: its link says so (written at most
  // every 400 ms after a change, also while playing: view/url.rs).
  const held = () =>
    page.evaluate(() => {
      const r = new URL(location.href).searchParams.get('requests');
      return r ? r.split(',').length : 0;
    });
  let accepted = 0;
  while (Date.now() - started < SECONDS * 1000) {
    // The scrubber dragged somewhere (back rewrites history: later requests go),
    // then a burst of sends, in the page itself (the test drives, the page works).
    await page.evaluate((k) => {
      const range = document.querySelector('input[name="clock"]');
      if (range) {
        range.value = String((((k * 7919) % 100) / 100) * Number(range.max || 0));
        range.dispatchEvent(new Event('input', { bubbles: true }));
        range.dispatchEvent(new Event('change', { bubbles: true }));
      }
    }, round);
    await page.waitForTimeout(450);
    const before = await held();
    await page.evaluate(() => {
      const send = document.querySelector('button.send');
      for (let i = 0; i < 10; i++) send?.click();
    });
    await page.waitForTimeout(450);
    accepted += Math.max(0, (await held()) - before);
    round += 1;
    const playing = await page.locator('button.play').getAttribute('aria-pressed');
    if (playing !== 'true') await page.locator('button.play').click();
    const s = (Date.now() - started) / 1000;
    if (s >= WARMUP_S && (samples.length === 0 || s - samples.at(-1)[0] >= 1)) samples.push([s, rendererMb()]);
  }
  if (process.env.RATELAB_SOAK_TRACE) t.diagnostic(samples.map(([s, m]) => `${s.toFixed(0)}:${m.toFixed(0)}`).join(" "));
  assert.ok(accepted >= round * 5, `only ${accepted} sends taken in ${round} rounds of 10`);
  assert.ok(samples.length >= 5, `only ${samples.length} samples`);
  assert.ok(samples.every(([, mb]) => mb > 0), 'no renderer of this test was found in /proc');
  const perMin = slope(samples.map((x) => x[0]), samples.map((x) => x[1])) * 60;
  const [first, last] = [samples[0][1], samples.at(-1)[1]];
  t.diagnostic(
    `soak ${SECONDS} s, ${round} rounds, ${accepted} sends taken: renderer ${first.toFixed(0)} → ${last.toFixed(0)} MB, ` +
      `trend ${perMin.toFixed(1)} MB/min (bound ${GROWTH_MB_PER_MIN})`,
  );
  assert.ok(perMin < GROWTH_MB_PER_MIN, `renderer memory grows ${perMin.toFixed(1)} MB/min`);
});
