// The browser benchmark's page: the same stream through the wasm engine and through
// the plain JavaScript limiters of reference.mjs, timed with performance.now() in
// this one page. Driven by run.mjs (playwright-core), which calls `runBench`.
import init, { BenchWorkload, algorithms, sweep_lab_d } from './pkg/ratelab_bench.js';
import { LIMITERS, PARAMS } from './reference.mjs';

// The JavaScript loop, compiled once per limiter with `new Function` so that each
// limiter gets its own feedback: one shared loop would see ten different closures
// at its call site and go megamorphic, which would handicap the JavaScript side.
const LOOP = `
  const fns = new Array(clients);
  for (let c = 0; c < clients; c++) fns[c] = make(params);
  let allowed = 0;
  for (let i = 0; i < times.length; i++) {
    if (fns[keys[i]](times[i])) allowed++;
  }
  return allowed;`;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Times fn() once, in ms. */
function time(fn) {
  const start = performance.now();
  const value = fn();
  return [performance.now() - start, value];
}

async function runBench({ rounds = 9, sweepRuns = 5 } = {}) {
  const status = document.getElementById('status');
  await init();
  const workload = new BenchWorkload();
  const times = workload.times();
  const keys = workload.keys();
  const clients = workload.clients();
  const ids = algorithms();
  const twins = new Map(LIMITERS);
  const rows = ids.map((id) => {
    const make = twins.get(id);
    if (!make) throw new Error(`no JavaScript twin for ${id}`);
    return {
      id,
      make,
      loop: new Function('make', 'params', 'times', 'keys', 'clients', LOOP),
      wasm: [],
      js: [],
      wasmAllowed: null,
      jsAllowed: null,
    };
  });
  // Round 0 warms both sides up (V8 tiers wasm up from Liftoff to TurboFan and JS
  // from Ignition to TurboFan) and is not counted. Rounds alternate which side goes
  // first, so neither always runs on a cache the other just warmed.
  for (let round = 0; round <= rounds; round++) {
    status.textContent = `round ${round} of ${rounds}`;
    for (const r of rows) {
      const sides = [
        () => {
          const [ms, allowed] = time(() => workload.run(r.id));
          if (round > 0) r.wasm.push(ms);
          r.wasmAllowed = allowed;
        },
        () => {
          const [ms, allowed] = time(() => r.loop(r.make, PARAMS, times, keys, clients));
          if (round > 0) r.js.push(ms);
          r.jsAllowed = allowed;
        },
      ];
      if (round % 2) sides.reverse();
      sides.forEach((side) => side());
    }
    // Let the page breathe between rounds (and playwright's protocol messages through).
    await new Promise((ok) => setTimeout(ok, 0));
  }
  status.textContent = 'lab D sweep';
  const sweep = [];
  let sweepTotals = null;
  for (let i = 0; i < sweepRuns; i++) {
    const [ms, totals] = time(() => sweep_lab_d());
    sweep.push(ms);
    sweepTotals = Array.from(totals);
    await new Promise((ok) => setTimeout(ok, 0));
  }
  status.textContent = 'done';
  return {
    decisions: workload.requests(),
    clients,
    rounds,
    crossOriginIsolated: self.crossOriginIsolated === true,
    limiters: rows.map((r) => ({
      id: r.id,
      wasmMs: median(r.wasm),
      jsMs: median(r.js),
      wasmAllowed: r.wasmAllowed,
      jsAllowed: r.jsAllowed,
      wasmSamples: r.wasm,
      jsSamples: r.js,
    })),
    sweep: {
      medianMs: median(sweep),
      firstMs: sweep[0],
      samples: sweep,
      requests: sweepTotals[0],
      wrongAllows: sweepTotals[1],
      wrongBlocks: sweepTotals[2],
    },
  };
}

window.runBench = runBench;
document.getElementById('status').textContent = 'ready';
