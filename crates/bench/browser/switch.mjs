// Switching scenario as a person does: the built page (dist/) opens on one scenario,
// the scenario picker (`select[name=scenario]`) is set to another, and a Chromium
// trace (devtools.timeline) records every main-thread task from just before the
// change until the page has been quiet for a while. Each round is a fresh browser
// context (nothing cached, no state from the round before). Prints one tab-separated
// line per target scenario for `cargo xtask bench`:
//
//   bench  switch  <to>  <rounds>  <longest task median ms>  <longest task worst ms>
//          <tasks ≥ 50 ms median>  <busy median ms>  <change → next frame median ms>
//          <from>
//   bench  switch  <to>  pending  <why>
//
// Two more targets run lab D through the JS API instead of switching (issue 15's
// "lab D sweep (API)" row): `api:simulate` calls `simulate({scenario: 'lab-d'})`
// in a task of its own, `api:simulateAsync` awaits `simulateAsync` (the worker);
// the window then runs from the call until its answer and a quiet second, and
// "change → next frame" is from the call to the next frame.
//
// "Longest task" is the longest main-thread task (a trace's `RunTask` on the page's
// renderer main thread) in the window; "busy" is the sum of every task there;
// "change → next frame" is from the `change` event to the first frame that starts
// after it (a requestAnimationFrame queued by a capturing listener on the picker).
//
//   RATELAB_DIST            the built page (default: ../../../dist)
//   RATELAB_SWITCH_FROM     the query the page opens with (default ?scenario=golden)
//   RATELAB_SWITCH_TO       the scenarios to switch to (default
//                           lab-b,lab-e,api:simulate,api:simulateAsync)
//   RATELAB_SWITCH_ROUNDS   rounds per scenario (default 5)
//   RATELAB_SWITCH_TRACE    a directory: save each round's trace there
//                           (switch-<to>-<round>.json, for devtools' Performance panel)
//   RATELAB_SWITCH_PROFILE  =1: also record Chromium's CPU profile (CDP) over one
//                           more switch per scenario and print the functions with
//                           the most self time (for the why, not the numbers);
//                           =dir: the same, and each profile saved there as
//                           switch-<to>.cpuprofile (open it in devtools)
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve, chromiumOptions, printProfile, median } from './serve.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.env.RATELAB_DIST ?? join(here, '..', '..', '..', 'dist'));
const from = process.env.RATELAB_SWITCH_FROM ?? '?scenario=golden';
const targets = (process.env.RATELAB_SWITCH_TO ?? 'lab-b,lab-e,api:simulate,api:simulateAsync').split(',').filter(Boolean);
const rounds = Math.max(1, Number(process.env.RATELAB_SWITCH_ROUNDS ?? 5));
const PICKER = 'select[name="scenario"]';
const LANE = '.lane[data-lane]';
// The window ends when every 100 ms poll of the page for this long was answered
// within 120 ms (the main thread was not held up by a task of the switch's).
const QUIET_MS = 1000;
const line = (...fields) => console.log(['bench', 'switch', ...fields].join('\t'));

/** The main-thread tasks of the page's renderer in a trace, as [start µs, dur µs]. */
function mainTasks(trace) {
  const events = trace.traceEvents ?? trace;
  // The renderer's main thread that ran the page's frames: the CrRendererMain
  // thread with the most task time (the page has one renderer; an extension or
  // spare renderer would be idle).
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || !mains.has(`${e.pid}:${e.tid}`)) continue;
    const k = `${e.pid}:${e.tid}`;
    if (!byThread.has(k)) byThread.set(k, []);
    byThread.get(k).push([e.ts, e.dur ?? 0]);
  }
  let best = [];
  let bestTime = -1;
  for (const tasks of byThread.values()) {
    const time = tasks.reduce((a, [, d]) => a + d, 0);
    if (time > bestTime) [best, bestTime] = [tasks, time];
  }
  return best;
}

async function open(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  await page.waitForSelector(LANE, { timeout: 60_000 });
  // The setup form is a <details>, folded while a lesson is open: open it as a
  // person would before reaching for the picker.
  const picker = page.locator(PICKER).first();
  if (!(await picker.isVisible())) {
    await page.locator('details:has(select[name="scenario"]) > summary').first().click();
  }
  // The JS API, for the `api:` targets (the page's own loader: the wasm is loaded once).
  await page.evaluate(async () => {
    const { load } = await import(new URL('ratelab.js', location.href).href);
    window.__api = await load();
  });
  // Let the mount's own tasks finish.
  await page.waitForTimeout(1500);
  return { context, page, picker, problems };
}

/** One switch to `to` in a fresh page; its trace's numbers. */
async function round(browser, url, to, n) {
  const { context, page, picker, problems } = await open(browser, url);
  try {
    const api = to.startsWith('api:') ? to.slice(4) : null;
    await page.evaluate((selector) => {
      const s = (window.__switch = { change: null, frame: null, done: true });
      document.querySelector(selector).addEventListener(
        'change',
        () => {
          s.change = performance.now();
          requestAnimationFrame(() => {
            s.frame = performance.now();
          });
        },
        { capture: true },
      );
    }, PICKER);
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
    });
    if (api) {
      await page.evaluate((call) => {
        const s = window.__switch;
        s.done = false;
        setTimeout(() => {
          s.change = performance.now();
          requestAnimationFrame(() => {
            s.frame = performance.now();
          });
          const config = { scenario: 'lab-d' };
          if (call === 'simulate') {
            window.__api.simulate(config);
            s.done = true;
          } else {
            window.__api[call](config).then(() => (s.done = true));
          }
        }, 0);
      }, api);
    } else {
      await picker.selectOption(to);
    }
    // Wait for the page to go quiet (see QUIET_MS); the polls are not a
    // measurement, only the trace is.
    await page.waitForFunction(() => window.__switch.frame !== null && window.__switch.done, null, { timeout: 120_000 });
    let quietSince = Date.now();
    let last = await page.evaluate(() => performance.now());
    while (Date.now() - quietSince < QUIET_MS) {
      await page.waitForTimeout(100);
      const now = await page.evaluate(() => performance.now());
      if (now - last > 120) quietSince = Date.now();
      last = now;
    }
    const raw = await browser.stopTracing();
    if (process.env.RATELAB_SWITCH_TRACE) {
      await writeFile(join(process.env.RATELAB_SWITCH_TRACE, `switch-${to}-${n}.json`), raw);
    }
    const trace = JSON.parse(raw.toString('utf8'));
    const s = await page.evaluate(() => window.__switch);
    const lanes = await page.locator(LANE).count();
    const shown = await picker.inputValue();
    if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);
    if ((!api && shown !== to) || lanes === 0) throw new Error(`the page shows ${shown} with ${lanes} lane(s)`);
    const tasks = mainTasks(trace);
    if (tasks.length === 0) throw new Error('the trace holds no main-thread task');
    const ms = tasks.map(([, d]) => d / 1000);
    return {
      longest: Math.max(...ms),
      long: ms.filter((d) => d >= 50).length,
      busy: ms.reduce((a, d) => a + d, 0),
      frame: s.frame - s.change,
    };
  } finally {
    await context.close();
  }
}

/** One more switch with the CPU profiler on: where the time goes. */
async function profile(browser, url, to) {
  const { context, page, picker } = await open(browser, url);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await picker.selectOption(to);
    await page.waitForTimeout(3000);
    console.log(['bench', 'profile', `switch to ${to}`].join('\t'));
    const { profile } = await cdp.send('Profiler.stop');
    printProfile(profile, 30);
    const dir = process.env.RATELAB_SWITCH_PROFILE;
    if (dir !== '1') await writeFile(join(dir, `switch-${to}.cpuprofile`), JSON.stringify(profile));
  } finally {
    await context.close();
  }
}

if (!existsSync(join(dist, 'index.html'))) {
  for (const to of targets) line(to, 'pending', `no ${join(dist, 'index.html')} (trunk build --release first)`);
  process.exit(0);
}
const server = await serve({ '/': dist });
const browser = await chromium.launch(chromiumOptions());
try {
  const url = `http://127.0.0.1:${server.address().port}/index.html${from}`;
  for (const to of targets) {
    try {
      // One round unmeasured: the first switch of a browser process warms it.
      await round(browser, url, to, 'warm-up');
      const rs = [];
      for (let i = 0; i < rounds; i++) rs.push(await round(browser, url, to, i + 1));
      const pick = (k) => median(rs.map((r) => r[k]));
      line(
        to,
        rs.length,
        pick('longest').toFixed(1),
        Math.max(...rs.map((r) => r.longest)).toFixed(1),
        pick('long'),
        pick('busy').toFixed(1),
        pick('frame').toFixed(1),
        from,
      );
      if (process.env.RATELAB_SWITCH_PROFILE && !to.startsWith('api:')) await profile(browser, url, to);
    } catch (e) {
      line(to, 'pending', `the harness failed: ${String(e.message ?? e).split('\n')[0]}`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
