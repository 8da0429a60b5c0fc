// Frame cost of the playground, in headless Chromium: each view opens the built page
// (dist/) with a query string in a fresh browser context, presses play, then samples
// requestAnimationFrame deltas and long tasks (PerformanceObserver) while the virtual
// clock moves. The views (issue 15's rows):
//
//   six     six lanes, the 2x-rate scenario at 16x
//   six     the same with the CPU throttled 4× (CDP Emulation.setCPUThrottlingRate)
//   lab-e   lab E at 16x, from 59 s (the burst at the minute's edge, then 10 per
//           second for two minutes: the clock would otherwise spend its first four
//           seconds of play on an empty minute)
//   lab-b   lab B at 16x (a request every 300 ms for three minutes)
//
// Prints one tab-separated line per view for `cargo xtask bench`:
//
//   bench  frames  <view>  <cpu rate>  <work median ms>  <work p95 ms>  <frames>
//          <long tasks>  <longest task ms>  <rAF delta median ms>  <rAF delta p95 ms>
//          <dropped>  <clock from → to>  <url>
//   bench  frames  <view>  <cpu rate>  pending  <why>
//
// "Work" is the main thread's time per frame (scripts, style, layout, paint), which
// is what the 16 ms target is about; rAF deltas are quantised to the display's
// 16.7 ms and show dropped frames instead.
//
// It never invents numbers: if the page has too few lanes, no play control, or play
// does not move the virtual clock, the view is reported as pending with the reason.
//
//   RATELAB_DIST          the built page (default: ../../../dist)
//   RATELAB_FRAME_QUERY   one view instead of the four: this query, normal speed
//   RATELAB_FRAME_VIEWS   the views to run, by name (default: all four)
//   RATELAB_FRAME_SECONDS how long to sample after pressing play (default 5)
//   RATELAB_FRAME_SHOT    a path: save a screenshot of each running view there,
//                         the view's name and rate before the extension (optional)
//   RATELAB_FRAME_PROFILE =1: also record Chromium's CPU profile (CDP) while playing
//                         and print the functions with the most self time (this
//                         slows frames down: not for the numbers, for the why)
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve, chromiumOptions, printProfile } from './serve.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.env.RATELAB_DIST ?? join(here, '..', '..', '..', 'dist'));
const LANES = [
  'fixed_window',
  'sliding_log',
  'sliding_window_counter',
  'token_bucket',
  'leaky_queue',
  'gcra',
];
const SIX = `?scenario=2x-rate&limiters=${LANES.join(',')}&speed=16`;
// name, query, CPU slow-down, the fewest lanes the view must show.
const ALL_VIEWS = [
  { name: 'six', query: SIX, rate: 1, lanes: 6 },
  { name: 'six', query: SIX, rate: 4, lanes: 6 },
  { name: 'lab-e', query: '?scenario=lab-e&speed=16&t=59s', rate: 1, lanes: 1 },
  { name: 'lab-b', query: '?scenario=lab-b&speed=16', rate: 1, lanes: 1 },
];
const wanted = (process.env.RATELAB_FRAME_VIEWS ?? '').split(',').filter(Boolean);
const views = process.env.RATELAB_FRAME_QUERY
  ? [{ name: 'custom', query: process.env.RATELAB_FRAME_QUERY, rate: 1, lanes: 1 }]
  : ALL_VIEWS.filter((v) => wanted.length === 0 || wanted.includes(v.name));
const seconds = Number(process.env.RATELAB_FRAME_SECONDS ?? 5);

// What counts as a lane, a play control and the virtual clock: the playground's
// hooks first (`.lane[data-lane]`, `button.play`, `output.now`), then generic ones.
const LANE_SELECTOR = '[data-lane], .lane';
const PLAY_SELECTORS = ['[data-action="play"]', 'button.play', 'button[aria-label="play" i]'];
const CLOCK_SELECTORS = ['[data-now]', 'output.now', 'output.clock', '.clock output'];

const line = (...fields) => console.log(['bench', 'frames', ...fields].join('\t'));

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

async function first(page, selectors) {
  for (const s of selectors) {
    if ((await page.locator(s).count()) > 0) return s;
  }
  return null;
}

async function measure(page, url, view) {
  const out = (...fields) => line(view.name, view.rate, ...fields);
  const pending = (why) => {
    out('pending', why);
    return null;
  };
  await page.goto(url);
  // Let the app mount (wasm compile + first render; slower when throttled), then
  // settle, so that the first frames measured are not the mount's.
  try {
    await page.waitForSelector(LANE_SELECTOR, { timeout: 30_000 * view.rate });
  } catch {
    // Counted below.
  }
  await page.waitForTimeout(1000 * view.rate);
  const lanes = await page.locator(LANE_SELECTOR).count();
  if (lanes < view.lanes) {
    return pending(`the page shows ${lanes} lane(s) for ${view.query}, not ${view.lanes} (UI not ready, or another URL format: set RATELAB_FRAME_QUERY)`);
  }
  const playSelector = await first(page, PLAY_SELECTORS);
  const play = playSelector
    ? page.locator(playSelector).first()
    : page.getByRole('button', { name: /^\W*play\b/i }).first();
  if ((await play.count()) === 0) return pending('no play control found');
  const clock = await first(page, CLOCK_SELECTORS);
  if (!clock) return pending('no virtual clock found (cannot tell playing frames from idle ones)');

  // Per frame: the rAF timestamp (the frame's start, shared by every rAF callback of
  // that frame, the app's included), the delta to the previous frame, the clock's
  // text, and when a message posted from the callback is delivered: that task runs
  // after the frame's scripts, style, layout and paint, so `end − start` is the main
  // thread's work for the frame.
  await page.evaluate((clockSelector) => {
    const f = (window.__frames = { rows: [], long: [], on: true });
    const el = document.querySelector(clockSelector);
    const channel = new MessageChannel();
    let pendingRow = null;
    channel.port1.onmessage = () => {
      if (pendingRow) pendingRow.work = performance.now() - pendingRow.start;
      pendingRow = null;
    };
    let last = null;
    const tick = (start) => {
      const row = { start, delta: last === null ? null : start - last, clock: el?.textContent ?? '', work: null };
      last = start;
      f.rows.push(row);
      pendingRow = row;
      channel.port2.postMessage(0);
      if (f.on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) f.long.push(e.duration);
      }).observe({ type: 'longtask', buffered: false });
    } catch {
      // No long task API: the per-frame work still tells.
    }
  }, clock);
  let cdp = null;
  if (process.env.RATELAB_FRAME_PROFILE) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await play.click();
  // Sample while the clock moves: stop a second after it last changed, or at the limit.
  const started = Date.now();
  let lastText = null;
  let lastChange = Date.now();
  while (Date.now() - started < seconds * 1000) {
    await page.waitForTimeout(250);
    const text = await page.locator(clock).first().textContent();
    if (text !== lastText) {
      lastText = text;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > 1000) {
      break;
    }
  }
  const f = await page.evaluate(() => {
    window.__frames.on = false;
    return window.__frames;
  });
  if (cdp) printProfile((await cdp.send('Profiler.stop')).profile);
  const shot = process.env.RATELAB_FRAME_SHOT;
  if (shot) await page.screenshot({ path: shot.replace(/(\.png)?$/, `-${view.name}-${view.rate}x.png`) });
  // Playing frames: from the first frame whose clock differs from the one before it
  // to the last such frame.
  const moved = f.rows.map((r, i) => i > 0 && r.clock !== f.rows[i - 1].clock);
  const a = moved.indexOf(true);
  const b = moved.lastIndexOf(true);
  if (a < 0) return pending(`pressing play did not move the virtual clock (${f.rows[0]?.clock ?? '?'})`);
  const playing = f.rows.slice(a, b + 1);
  if (playing.length < 10) return pending(`only ${playing.length} frames while playing`);
  const work = playing.map((r) => r.work).filter((w) => w !== null).sort((x, y) => x - y);
  const deltas = playing.map((r) => r.delta).filter((d) => d !== null).sort((x, y) => x - y);
  const median = percentile(deltas, 50);
  const dropped = deltas.filter((d) => d > median * 1.5).length;
  const longest = f.long.length ? Math.max(...f.long) : 0;
  out(
    percentile(work, 50).toFixed(2),
    percentile(work, 95).toFixed(2),
    playing.length,
    f.long.length,
    longest.toFixed(1),
    median.toFixed(2),
    percentile(deltas, 95).toFixed(2),
    dropped,
    `${playing[0].clock.trim()} → ${playing[playing.length - 1].clock.trim()}`,
    `dist/index.html${view.query}`,
  );
  return f;
}

if (!existsSync(join(dist, 'index.html'))) {
  for (const v of views) line(v.name, v.rate, 'pending', `no ${join(dist, 'index.html')} (trunk build --release first)`);
  process.exit(0);
}
const server = await serve({ '/': dist });
const browser = await chromium.launch(chromiumOptions());
try {
  for (const view of views) {
    // A fresh context per view: nothing cached, no state from the one before.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const problems = [];
      page.on('pageerror', (e) => problems.push(e.message));
      if (view.rate > 1) {
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: view.rate });
      }
      const url = `http://127.0.0.1:${server.address().port}/index.html${view.query}`;
      try {
        await measure(page, url, view);
      } catch (e) {
        line(view.name, view.rate, 'pending', `the harness failed: ${String(e.message ?? e).split('\n')[0]}`);
      }
      if (problems.length) console.error(`page errors (${view.name}): ${problems.join('; ')}`);
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
