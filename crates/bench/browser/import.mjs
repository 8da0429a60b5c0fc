// Importing a big stream through the page's JSON box, as a person does: the built
// page (dist/) opens, the setup's JSON box is opened, its textarea is filled with
// a config of N requests on two lanes (three are over the playground's work
// budget at 2 000 000) (made in the page, so the text does not cross the
// DevTools wire; `input` and `change` are dispatched as a paste and a blur would)
// and the Import button is clicked. Then the clock plays for a few seconds.
// Prints one tab-separated line per size:
//
//   bench  import  <requests>  <wall ms>  <settled ms>  <longest task ms>  <tasks ≥ 50 ms>
//          <frames drawn meanwhile>  <longest frame meanwhile ms>
//          <frame median ms>  <frame p95 ms>  <change ms>
//   bench  import  <requests>  pending  <why>
//
// "Wall" is from the click to the first frame that shows the imported stream (the
// scenario picker says custom); "settled" is until the end of the last long task
// after the click, if later (work the page still did after showing it). "Longest task" is the longest main-thread task
// (Long Tasks API: tasks of 50 ms or more) from the click until the page is quiet;
// "frames drawn meanwhile" and "longest frame meanwhile" are the
// requestAnimationFrame intervals from the click to that first frame (an import
// built in one task draws one frame, as long as the task). The last two are the
// frame intervals over RATELAB_IMPORT_PLAY_MS of playing after it. "Change" is
// how long the box's `change` event took (its handlers run inside the dispatch),
// before the click: what a paste and a blur cost.
//
//   RATELAB_DIST              the built page (default: ../../../dist)
//   RATELAB_IMPORT_SIZES      request counts (default 200000,2000000)
//   RATELAB_IMPORT_PLAY_MS    how long to play after the import (default 4000)
//   RATELAB_IMPORT_PROFILE    =dir: record a CPU profile of each import there
//                             (import-<n>.cpuprofile) and print its top functions
//
// Run: node crates/bench/browser/import.mjs (after `cargo xtask test --only build`),
// with RATELAB_CHROMIUM (and RATELAB_CHROMIUM_FLAGS) as for the other parts.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve, chromiumOptions, printProfile, median } from './serve.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.env.RATELAB_DIST ?? join(here, '..', '..', '..', 'dist'));
const sizes = (process.env.RATELAB_IMPORT_SIZES ?? '200000,2000000').split(',').filter(Boolean).map(Number);
const playMs = Number(process.env.RATELAB_IMPORT_PLAY_MS ?? 4000);
const profileDir = process.env.RATELAB_IMPORT_PROFILE;
const line = (...fields) => console.log(['bench', 'import', ...fields].join('\t'));

function recordLongTasks() {
  window.__tasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__tasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
}

async function once(browser, url, n) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  try {
    await page.addInitScript(recordLongTasks);
    await page.goto(url);
    await page.locator('article.lane').first().waitFor({ timeout: 60_000 });
    const box = page.locator('details.json').first();
    if (!(await box.isVisible())) await page.locator('details.setup-fold > summary').first().click();
    await box.locator('summary').click();
    await page.waitForTimeout(1000);
    // The config, written into the box in the page.
    const change = await page.evaluate((n) => {
      const times = new Array(n);
      for (let i = 0; i < n; i++) times[i] = i * 5;
      const config = {
        requests: times,
        limiters: [
          { algorithm: 'fixed_window', limit: 5, period_ms: 10000 },
          { algorithm: 'token_bucket', limit: 5, period_ms: 10000 },
        ],
      };
      const area = document.querySelector('details.json textarea');
      area.value = JSON.stringify(config);
      area.dispatchEvent(new Event('input', { bubbles: true }));
      const t = performance.now();
      area.dispatchEvent(new Event('change', { bubbles: true }));
      return performance.now() - t;
    }, n);
    await page.waitForTimeout(1000);
    let cdp;
    if (profileDir) {
      cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
    await page.evaluate(() => {
      window.__tasks = [];
      window.__during = [];
      window.__done = null;
      const picker = document.querySelector('select[name="scenario"]');
      window.__click = performance.now();
      // Each frame until the page shows the imported stream (the picker says
      // custom): the frames the page drew while it worked, and when it was done.
      let prev = window.__click;
      // (performance.now(), not the frame's timestamp: Chromium handles input at
      // the start of a frame, after the time the frame's callbacks are given.)
      const frame = () => {
        const t = performance.now();
        window.__during.push(t - prev);
        prev = t;
        if (picker.value === 'custom') window.__done = t;
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      // From the click's own input event on (a click made inside this evaluate
      // would run in DevTools' task, which the Long Tasks API does not report).
      document.querySelector('details.json button.import').addEventListener(
        'click',
        () => {
          window.__click = performance.now();
          prev = window.__click;
        },
        { capture: true, once: true },
      );
    });
    await page.locator('details.json button.import').click();
    const t0 = await page.evaluate(() => window.__click);
    // Done (built in slices, the page answers all along), then quiet.
    await page.waitForFunction(() => window.__done !== null, null, { timeout: 300_000, polling: 100 });
    // Quiet: every 100 ms poll answered within 150 ms, for 1.5 s.
    let quietSince = Date.now();
    let last = await page.evaluate(() => performance.now());
    while (Date.now() - quietSince < 1500) {
      await page.waitForTimeout(100);
      const now = await page.evaluate(() => performance.now());
      if (now - last > 250) quietSince = Date.now();
      last = now;
    }
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      console.log(['bench', 'profile', `import ${n}`].join('\t'));
      printProfile(profile, 25);
      await writeFile(join(profileDir, `import-${n}.cpuprofile`), JSON.stringify(profile));
    }
    const state = await page.evaluate(() => ({
      scenario: document.querySelector('select[name="scenario"]')?.value,
      error: document.querySelector('details.json .error')?.textContent ?? '',
      tasks: window.__tasks,
      done: window.__done,
      during: window.__during,
    }));
    if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);
    if (state.scenario !== 'custom' || state.error) {
      throw new Error(`not imported: scenario ${state.scenario}, error "${state.error.slice(0, 200)}"`);
    }
    const after = state.tasks.filter(([s]) => s >= t0 - 1);
    const wall = state.done === null ? NaN : state.done - t0;
    // Until the import's last long task ended (later tasks: what the page did
    // after showing it).
    const ends = after.map(([s, d]) => s + d - t0);
    const settled = Math.max(wall, ...ends);
    const worstDuring = state.during.length ? Math.max(...state.during) : NaN;
    const longest = after.length ? Math.max(...after.map(([, d]) => d)) : 0;
    // Play, and time the frames.
    await page.locator('button.play').first().click();
    const frames = await page.evaluate(
      (ms) =>
        new Promise((done) => {
          const out = [];
          let prev = performance.now();
          const end = prev + ms;
          const step = (t) => {
            out.push(t - prev);
            prev = t;
            if (t < end) requestAnimationFrame(step);
            else done(out);
          };
          requestAnimationFrame(step);
        }),
      playMs,
    );
    const sorted = frames.slice(1).sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? NaN;
    return { wall, settled, longest, long: after.length, worstDuring, framesDuring: state.during.length, frameMedian: median(sorted), frameP95: p95, change };
  } finally {
    await context.close();
  }
}

if (!existsSync(join(dist, 'index.html'))) {
  for (const n of sizes) line(n, 'pending', `no ${join(dist, 'index.html')} (cargo xtask test --only build first)`);
  process.exit(0);
}
const server = await serve({ '/': dist });
const browser = await chromium.launch(chromiumOptions());
try {
  const url = `http://127.0.0.1:${server.address().port}/index.html?scenario=golden`;
  for (const n of sizes) {
    try {
      const r = await once(browser, url, n);
      line(n, r.wall.toFixed(0), r.settled.toFixed(0), r.longest.toFixed(0), r.long, r.framesDuring, r.worstDuring.toFixed(0), r.frameMedian.toFixed(1), r.frameP95.toFixed(1), r.change.toFixed(0));
    } catch (e) {
      line(n, 'pending', `the harness failed: ${String(e.message ?? e).split('\n')[0]}`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
