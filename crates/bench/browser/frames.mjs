// Frame cost of the playground: six lanes running the 2x-rate scenario at 16x speed,
// in headless Chromium. Opens the built page (dist/) with a query string, presses
// play, then samples requestAnimationFrame deltas and long tasks (PerformanceObserver)
// for a few seconds. Prints one tab-separated line for `cargo xtask bench`:
//
//   bench  frames  <work median ms>  <work p95 ms>  <frames>  <long tasks>
//          <longest task ms>  <rAF delta median ms>  <rAF delta p95 ms>  <dropped>
//          <clock from → to>  <url>
//   bench  frames  pending  <why>
//
// "Work" is the main thread's time per frame (scripts, style, layout, paint), which
// is what the 16 ms target is about; rAF deltas are quantised to the display's
// 16.7 ms and show dropped frames instead.
//
// It never invents numbers: if the page has no six lanes, no play control, or play
// does not move the virtual clock, the step is reported as pending with the reason.
//
//   RATELAB_DIST          the built page (default: ../../../dist)
//   RATELAB_FRAME_QUERY   the query that sets up the lanes (default below)
//   RATELAB_FRAME_SECONDS how long to sample after pressing play (default 5)
//   RATELAB_FRAME_SHOT    where to save a screenshot of the running page (optional)
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
const query =
  process.env.RATELAB_FRAME_QUERY ?? `?scenario=2x-rate&limiters=${LANES.join(",")}&speed=16`;
const seconds = Number(process.env.RATELAB_FRAME_SECONDS ?? 5);

// What counts as a lane, a play control and the virtual clock: the playground's
// hooks first (`.lane[data-lane]`, `button.play`, `output.now`), then generic ones.
const LANE_SELECTOR = '[data-lane], .lane';
const PLAY_SELECTORS = ['[data-action="play"]', 'button.play', 'button[aria-label="play" i]'];
const CLOCK_SELECTORS = ['[data-now]', 'output.now', 'output.clock', '.clock output'];

const out = (...fields) => console.log(['bench', 'frames', ...fields].join('\t'));
const pending = (why) => {
  out('pending', why);
  return null;
};

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

async function measure(page, url) {
  await page.goto(url);
  // Give the app time to mount (wasm compile + first render).
  await page.waitForTimeout(1500);
  const lanes = await page.locator(LANE_SELECTOR).count();
  if (lanes < 6) {
    return pending(`the page shows ${lanes} lane(s) for ${query}, not 6 (UI not ready, or another URL format: set RATELAB_FRAME_QUERY)`);
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
  if (process.env.RATELAB_FRAME_SHOT) await page.screenshot({ path: process.env.RATELAB_FRAME_SHOT });
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
    `dist/index.html${query}`,
  );
  return f;
}

if (!existsSync(join(dist, 'index.html'))) {
  pending(`no ${join(dist, 'index.html')} (trunk build --release first)`);
  process.exit(0);
}
const server = await serve({ '/': dist });
const browser = await chromium.launch(chromiumOptions());
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  const url = `http://127.0.0.1:${server.address().port}/index.html${query}`;
  try {
    await measure(page, url);
  } catch (e) {
    pending(`the harness failed: ${String(e.message ?? e).split('\n')[0]}`);
  }
  if (problems.length) console.error(`page errors: ${problems.join('; ')}`);
} finally {
  await browser.close();
  server.close();
}
