// The browser benchmark: serves bench.html and the wasm package on 127.0.0.1, runs
// the page in headless Chromium (playwright-core) and prints one tab-separated line
// per result for `cargo xtask bench`, plus the whole result as JSON to a file.
//
//   RATELAB_BENCH_PKG=dir   the wasm-bindgen output (ratelab_bench.js + _bg.wasm)
//   RATELAB_BENCH_OUT=file  where to write the JSON (optional)
//   RATELAB_BENCH_ROUNDS=n  measured rounds (default 9), RATELAB_BENCH_SWEEPS=n (5)
//   RATELAB_BENCH_PROFILE=1 also record Chromium's CPU profile (CDP) over the whole
//                           run and print the functions with the most self time
//                           (wasm functions by name when the module keeps its
//                           name section, i.e. before wasm-opt)
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve, chromiumOptions, printProfile } from './serve.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const pkg = process.env.RATELAB_BENCH_PKG;
if (!pkg) {
  console.error('RATELAB_BENCH_PKG must name the wasm-bindgen output directory');
  process.exit(2);
}
const rounds = Number(process.env.RATELAB_BENCH_ROUNDS ?? 9);
const sweepRuns = Number(process.env.RATELAB_BENCH_SWEEPS ?? 5);

const server = await serve({ '/': here, '/pkg/': pkg });
const browser = await chromium.launch(chromiumOptions());
try {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  await page.goto(`http://127.0.0.1:${server.address().port}/bench.html`);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
  let cdp = null;
  if (process.env.RATELAB_BENCH_PROFILE) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  const result = await page.evaluate((opts) => window.runBench(opts), { rounds, sweepRuns });
  if (cdp) printProfile((await cdp.send('Profiler.stop')).profile, 40);
  if (problems.length) throw new Error(problems.join('\n'));
  result.browser = browser.version();
  if (process.env.RATELAB_BENCH_OUT) {
    await writeFile(process.env.RATELAB_BENCH_OUT, JSON.stringify(result, null, 2) + '\n');
  }
  const line = (...fields) => console.log(['bench', ...fields].join('\t'));
  line('browser', result.browser, result.crossOriginIsolated ? 'isolated' : 'not-isolated');
  line('workload', result.decisions, result.clients, result.rounds);
  for (const l of result.limiters) {
    line('limiter', l.id, l.wasmMs.toFixed(4), l.jsMs.toFixed(4), l.wasmAllowed, l.jsAllowed);
  }
  const s = result.sweep;
  line('sweep', s.medianMs.toFixed(2), s.firstMs.toFixed(2), s.samples.length, s.requests, s.wrongAllows, s.wrongBlocks);
} finally {
  await browser.close();
  server.close();
}
