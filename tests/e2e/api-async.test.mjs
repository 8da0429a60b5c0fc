// The JS API's promise-returning calls (issue 15): `simulateAsync` and
// `simulateJsonAsync` run the synchronous call in a module worker on the page's own
// compiled wasm. What is asserted is the answer (byte for byte the synchronous
// call's, errors the same line), that calls in flight each get their own, and that
// the main thread ran other tasks while lab D ran; never a duration. The longest
// main-thread task of each way is printed for docs/benchmarks.md.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, serve, dist, watchWorkersAndLongTasks } from './helpers.mjs';

let server;
let strict;
let browser;
let base;
let strictBase;

before(async () => {
  server = await serve(dist);
  base = `http://127.0.0.1:${server.address().port}/`;
  // A page whose policy forbids workers: the calls run on the main thread instead.
  strict = await serve(dist, { csp: "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'none'" });
  strictBase = `http://127.0.0.1:${strict.address().port}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  for (const s of [server, strict]) await new Promise((ok) => (s ? s.close(ok) : ok()));
});

/** In the page: records the workers it starts and its long tasks; loads the API as `window.__api`. */
async function loadApi(page) {
  await watchWorkersAndLongTasks(page);
  await page.evaluate(async () => {
    const { load } = await import(new URL('ratelab.js', location.href).href);
    window.__api = await load();
    // Each way's answer as text: the value, or the error's kind and line.
    window.__both = async (call, arg) => {
      const outcome = async (run) => {
        try {
          return JSON.stringify({ value: await run() });
        } catch (e) {
          return JSON.stringify({ error: e instanceof Error, name: e?.name, message: e?.message });
        }
      };
      const sync = await outcome(() => window.__api[call](arg));
      const later = await outcome(() => window.__api[`${call}Async`](arg));
      return { sync, later };
    };
  });
}

test('simulateAsync and simulateJsonAsync answer as the synchronous calls do', async (t) => {
  const page = await open(t, browser, `${base}?scenario=golden`);
  await page.locator('article.lane').first().waitFor();
  await loadApi(page);
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  const cases = [
    ['simulate', { requests: [2000, 7000, 8000, 9000, 9500, 9800], limiters: [{ algorithm: 'gcra', limit: 5, period_ms: 10000 }, { algorithm: 'sliding_log', limit: 5, period_ms: 10000 }] }],
    ['simulate', { scenario: 'lab-c' }],
    ['simulate', { scenario: 'lab-d', seed: 7, clients: 20 }],
    ['simulateJson', '{"scenario":"golden"}'],
    ["simulateJson", "{\"requests\":[0,1,2],\"limiters\":[{\"algorithm\":\"nginx\",\"limit\":1,\"period_ms\":1000}]}"],
  ];
  for (const [call, arg] of cases) {
    const { sync, later } = await page.evaluate(([c, a]) => window.__both(c, a), [call, arg]);
    assert.match(sync, /^\{"value"/, `${call}(${JSON.stringify(arg)}) answers`);
    assert.equal(later, sync, `${call}Async(${JSON.stringify(arg)})`);
  }
  const workers = await page.evaluate(() => window.__workers);
  assert.ok(workers.length >= 1, 'a worker ran them');
  assert.ok(workers.every((w) => /\/worker\.js$/.test(w.url) && w.type === 'module'), JSON.stringify(workers));
  // The first module is handed over compiled; the API's chunks the worker fetches
  // itself (from the HTTP cache once the page has them), nothing else.
  const wasm = requested.filter((p) => p.endsWith('.wasm'));
  assert.ok(!wasm.includes('/ratelab-web_bg.wasm'), `the worker was handed the compiled module: ${wasm}`);
  assert.ok(wasm.includes('/split_api.wasm'), `the worker fetched the API's chunk: ${wasm}`);
  assert.ok(wasm.every((p) => /^\/(split_api|chunk_\d+)\.wasm$/.test(p)), `only the API's chunks: ${wasm}`);
});

test('bad and hostile arguments: the same error, the same line', async (t) => {
  const page = await open(t, browser, `${base}?scenario=golden`);
  await page.locator('article.lane').first().waitFor();
  await loadApi(page);
  const outcomes = await page.evaluate(async () => {
    const gcra = { algorithm: 'gcra', limit: 5, period_ms: 10000 };
    const cases = {
      undefined: ['simulate', undefined],
      number: ['simulate', 12345],
      array: ['simulate', [1, 2]],
      null: ['simulate', null],
      nan: ['simulate', { requests: [0], limiters: [{ algorithm: 'gcra', limit: NaN, period_ms: 1 }] }],
      engine: ['simulate', { requests: [5, 1], limiters: [gcra] }],
      unknown: ['simulate', { scenario: 'nope' }],
      sparse: ['simulate', { requests: new Array(1e8), limiters: [gcra] }],
      sparseHole: ['simulate', { requests: [0, , 2], limiters: [gcra] }], // eslint-disable-line no-sparse-arrays
      deep: ['simulate', (() => { let o = {}; const top = o; for (let i = 0; i < 100; i++) o = o.x = {}; return top; })()],
      cycle: ['simulate', (() => { const o = { scenario: 'golden' }; o.self = o; return o; })()],
      fn: ['simulate', { scenario: 'golden', limit: () => 5 }],
      symbol: ['simulate', { scenario: Symbol('x') }],
      bigint: ['simulate', { scenario: 'golden', limit: 10n }],
      proxy: ['simulate', new Proxy({ scenario: 'golden' }, {})],
      trap: ['simulate', new Proxy({}, { ownKeys() { throw new Error('trapped'); } })],
      getter: ['simulate', { get scenario() { throw new Error('from a getter'); } }],
      jsonNumber: ['simulateJson', 12345],
      jsonObject: ['simulateJson', { scenario: 'golden' }],
      jsonBad: ['simulateJson', '{"scenario":'],
      jsonEngine: ['simulateJson', '{"requests":[5,1],"limiters":["gcra"]}'],
    };
    const out = {};
    for (const [name, [call, arg]] of Object.entries(cases)) out[name] = await window.__both(call, arg);
    // Still answering after all that.
    out.after = await window.__both('simulate', { scenario: 'golden' });
    return out;
  });
  for (const [name, { sync, later }] of Object.entries(outcomes)) {
    assert.equal(later, sync, name);
    const parsed = JSON.parse(sync);
    if (parsed.error) assert.doesNotMatch(parsed.message, /\n/, `${name}: one line`);
  }
  for (const name of ['undefined', 'number', 'array', 'null', 'jsonNumber', 'jsonObject']) {
    assert.equal(JSON.parse(outcomes[name].later).name, 'TypeError', name);
  }
  for (const name of ['nan', 'engine', 'unknown', 'sparse', 'jsonBad', 'jsonEngine']) {
    const e = JSON.parse(outcomes[name].later);
    assert.equal(e.error, true, name);
    assert.equal(e.name, 'Error', name);
  }
  assert.match(JSON.parse(outcomes.sparse.later).message, /100000000 requests is too many/);
  assert.match(outcomes.after.later, /^\{"value"/);
  for (const name of ['proxy', 'trap', 'getter', 'fn']) console.log(`# ${name}: ${outcomes[name].later.slice(0, 120)}`);
});

test('calls in flight each get their own answer', async (t) => {
  const page = await open(t, browser, `${base}?scenario=golden`);
  await page.locator('article.lane').first().waitFor();
  await loadApi(page);
  const out = await page.evaluate(async () => {
    const api = window.__api;
    const args = [
      { scenario: 'golden' },
      { scenario: 'lab-c' },
      { requests: [0, 1, 2, 3], limiters: ['fixed_window'] },
      { scenario: 'nope' },
    ];
    const settled = await Promise.allSettled([
      ...args.map((a) => api.simulateAsync(a)),
      api.simulateJsonAsync('{"scenario":"edge-burst"}'),
    ]);
    const sync = [...args.map((a) => { try { return api.simulate(a); } catch (e) { return e.message; } }), api.simulateJson('{"scenario":"edge-burst"}')];
    return settled.map((s, i) => ({
      later: JSON.stringify(s.status === 'fulfilled' ? s.value : s.reason.message),
      sync: JSON.stringify(sync[i]),
    }));
  });
  out.forEach(({ later, sync }, i) => assert.equal(later, sync, `call ${i}`));
  assert.notEqual(out[0].later, out[1].later);
});

test('lab D runs in the worker while the main thread keeps running tasks', async (t) => {
  const page = await open(t, browser, `${base}?scenario=golden`);
  await page.locator('article.lane').first().waitFor();
  await loadApi(page);
  const out = await page.evaluate(async () => {
    const api = window.__api;
    const order = [];
    let frames = 0;
    let waiting = true;
    const tick = () => {
      frames += 1;
      if (waiting) requestAnimationFrame(tick);
    };
    window.__long = [];
    const later = api.simulateAsync({ scenario: 'lab-d' }).then((r) => {
      order.push('settled');
      return r;
    });
    setTimeout(() => order.push('timeout'), 0);
    requestAnimationFrame(tick);
    const report = await later;
    waiting = false;
    const framesBefore = frames;
    const asyncLong = Math.max(0, ...window.__long);
    window.__long = [];
    // The synchronous call, in a task of its own, for the printed comparison.
    const sync = await new Promise((ok) => setTimeout(() => ok(api.simulate({ scenario: 'lab-d' })), 0));
    await new Promise((ok) => setTimeout(ok, 100));
    const syncLong = Math.max(0, ...window.__long);
    return {
      order,
      framesBefore,
      same: JSON.stringify(report) === JSON.stringify(sync),
      rows: report.sweep?.rows.length,
      asyncLong,
      syncLong,
    };
  });
  assert.deepEqual(out.order, ['timeout', 'settled'], 'a timeout queued after the call ran before the answer');
  assert.ok(out.framesBefore >= 1, 'frames were drawn while lab D ran');
  assert.equal(out.same, true, 'the same report as simulate');
  assert.equal(out.rows, 6);
  console.log(
    `# lab D through the API: longest main-thread task ${out.syncLong.toFixed(0)} ms with simulate, ` +
      `${out.asyncLong.toFixed(0)} ms with await simulateAsync (${out.framesBefore} frames meanwhile)`,
  );
});

test('where the page forbids workers, the calls run on the main thread, later', async (t) => {
  // Not `open`: the refused worker is a policy violation by design here.
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  t.after(() => context.close());
  await page.goto(`${strictBase}?scenario=golden`);
  await page.locator('article.lane').first().waitFor();
  await loadApi(page);
  const out = await page.evaluate(async () => {
    const order = [];
    const p = window.__api.simulateAsync({ scenario: 'golden' }).then(() => order.push('settled'));
    order.push('returned');
    await p;
    return { order, both: await window.__both('simulate', { scenario: 'lab-c' }), bad: await window.__both('simulate', { scenario: 'nope' }) };
  });
  assert.deepEqual(out.order, ['returned', 'settled']);
  assert.equal(out.both.later, out.both.sync);
  assert.equal(out.bad.later, out.bad.sync);
  assert.deepEqual(errors, []);
});
