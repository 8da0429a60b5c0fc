// The page's first frame: navigation → first lane drawn, in headless Chromium, at
// normal speed and with the CPU throttled (CDP Emulation.setCPUThrottlingRate). Each
// round opens the built page (dist/) in a fresh browser context (nothing cached; the
// server also says no-store), and reads, relative to the navigation's start:
//   - first contentful paint (the frame index.html draws before any script runs),
//   - when the wasm's download started and ended (resource timing: with the
//     preloads it starts with the HTML's parse, not after three module hops),
//   - when the first `.lane[data-lane]` was added to the document (a
//     MutationObserver from an init script) and the frame after it (a rAF
//     callback queued from that observer: the lane is painted by then).
// Prints one tab-separated line per CPU rate for `cargo xtask bench`:
//
//   bench  load  <rate>  <rounds>  <fcp ms>  <wasm start ms>  <wasm end ms>
//         <lane in DOM ms>  <lane drawn ms>  <lane drawn worst ms>  <wasm fetches>
//   bench  load  pending  <why>
//
// Every column is the median over the rounds except "worst" (the slowest round) and
// "wasm fetches" (the most requests for the .wasm one round made: 1 when the preload
// was used by the glue's fetch).
//
//   RATELAB_DIST          the built page (default: ../../../dist)
//   RATELAB_LOAD_ROUNDS   rounds per CPU rate (default 7)
//   RATELAB_LOAD_RATES    comma-separated CPU slow-down factors (default 1,4)
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve, chromiumOptions, median } from './serve.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.env.RATELAB_DIST ?? join(here, '..', '..', '..', 'dist'));
const rounds = Math.max(1, Number(process.env.RATELAB_LOAD_ROUNDS ?? 7));
const rates = (process.env.RATELAB_LOAD_RATES ?? '1,4').split(',').map(Number).filter((r) => r >= 1);
const out = (...fields) => console.log(['bench', 'load', ...fields].join('\t'));

// Runs in the page before any of its own scripts.
function watchForTheFirstLane() {
  const first = (window.__first = { lane: null, drawn: null });
  const seen = () => {
    if (first.lane !== null || !document.querySelector('.lane[data-lane]')) return;
    first.lane = performance.now();
    requestAnimationFrame(() => {
      first.drawn = performance.now();
    });
    observer.disconnect();
  };
  const observer = new MutationObserver(seen);
  observer.observe(document, { childList: true, subtree: true });
}

async function round(browser, url, rate) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(watchForTheFirstLane);
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    if (rate > 1) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    }
    await page.goto(url);
    await page.waitForFunction(() => window.__first?.drawn !== null, null, { timeout: 60_000 });
    const r = await page.evaluate(() => {
      const wasm = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm'));
      const fcp = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
      return {
        fcp: fcp?.startTime ?? NaN,
        wasmStart: wasm[0]?.startTime ?? NaN,
        wasmEnd: wasm[0]?.responseEnd ?? NaN,
        wasmFetches: wasm.length,
        lane: window.__first.lane,
        drawn: window.__first.drawn,
      };
    });
    if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);
    return r;
  } finally {
    await context.close();
  }
}

if (!existsSync(join(dist, 'index.html'))) {
  out('pending', `no ${join(dist, 'index.html')} (trunk build --release first)`);
  process.exit(0);
}
const server = await serve({ '/': dist });
const browser = await chromium.launch(chromiumOptions());
try {
  const url = `http://127.0.0.1:${server.address().port}/index.html`;
  // One round unmeasured, so that the first one measured is not the one that warms
  // the browser process itself.
  await round(browser, url, 1);
  for (const rate of rates) {
    const rs = [];
    for (let i = 0; i < rounds; i++) rs.push(await round(browser, url, rate));
    const pick = (k) => median(rs.map((r) => r[k]));
    out(
      rate,
      rs.length,
      pick('fcp').toFixed(1),
      pick('wasmStart').toFixed(1),
      pick('wasmEnd').toFixed(1),
      pick('lane').toFixed(1),
      pick('drawn').toFixed(1),
      Math.max(...rs.map((r) => r.drawn)).toFixed(1),
      Math.max(...rs.map((r) => r.wasmFetches)),
    );
  }
} catch (e) {
  out('pending', `the harness failed: ${String(e.message ?? e).split('\n')[0]}`);
} finally {
  await browser.close();
  server.close();
}
