// The live limiter of the JS API (`limiter(config).check(now, cost, key)`) in
// Node, without a DOM: loaded from bytes (ratelab-files.js's `load({ wasm, chunks })`), its decisions
// and responses equal to `simulate`'s (`responses: true`) for the same lane and stream, request for request, for
// each of the eight limiters; its bad input refused with one line; the lines
// `ratelab lua` prints for JavaScript run as printed; and the same files loaded
// the Workers way (a module given compiled wasm, no fetch, no document, no window).
// Needs dist/ (cargo xtask test --only build) and the CLI (RATELAB_CLI).
import assert from 'node:assert/strict';
import { test, before, after } from 'node:test';
import { spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EIGHT_LANES, chunkBytes, distAsModules, keyedStream } from './dist-modules.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = process.env.RATELAB_CLI ?? join(here, '..', '..', 'target', 'debug', 'ratelab');

let dir;
let api;

before(async () => {
  dir = await distAsModules('ratelab-live-');
  const { load } = await import(pathToFileURL(join(dir, 'ratelab-files.js')).href);
  api = await load({ wasm: await readFile(join(dir, 'ratelab-web_bg.wasm')), chunks: await chunkBytes(dir) });
});

after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('each limiter decides as simulate does, request for request, keys apart, costs > 1', () => {
  const requests = keyedStream(600);
  for (const lane of EIGHT_LANES) {
    // With each request's response, which check() must give too, field for field.
    const report = api.simulate({ requests, limiters: [lane], responses: true }).results[0];
    assert.equal(report.responses.length, requests.length, lane.algorithm);
    const live = api.limiter(lane);
    let denied = 0;
    let waited = 0;
    requests.forEach((r, i) => {
      const d = live.check(r.t, r.cost, r.key);
      const where = `${lane.algorithm}, request ${i} (${JSON.stringify(r)})`;
      assert.equal(d.allowed, report.allowed[i], where);
      assert.equal(d.wait_ms, report.wait_ms[i], where);
      assert.equal(d.status, d.allowed ? 200 : 429, where);
      const sent = report.responses[i];
      assert.deepEqual({ status: d.status, headers: d.headers, body: d.body }, sent, where);
      assert.deepEqual(Object.keys(d.headers), Object.keys(sent.headers), `${where}: the fields' order`);
      if (d.allowed) {
        assert.equal(d.body, null, where);
        assert.equal(d.retry_after, null, where);
        assert.equal(d.headers['Retry-After'], undefined, where);
        waited += d.wait_ms > 0;
      } else {
        denied++;
        assert.equal(d.retry_after, Math.max(1, Math.ceil(d.retry_after_ms / 1000)), where);
        assert.equal(d.headers['Retry-After'], String(d.retry_after), where);
        assert.equal(d.headers['Content-Type'], 'application/json', where);
        assert.deepEqual(JSON.parse(d.body), { error: 'rate_limit_exceeded', retry_after_seconds: d.retry_after }, where);
      }
      assert.equal(d.headers['X-RateLimit-Remaining'], String(d.remaining), where);
      assert.equal(d.headers.RateLimit, `"default";r=${d.remaining};t=${d.headers['X-RateLimit-Reset']}`, where);
      assert.match(d.headers['RateLimit-Policy'], /^"default";q=\d+;w=\d+$/, where);
    });
    // The stream means something for every limiter: some refused, every key seen.
    assert.ok(denied > 0 && denied < requests.length, `${lane.algorithm}: ${denied} denied`);
    if (lane.algorithm === 'leaky_queue' || lane.algorithm === 'nginx') assert.ok(waited > 0, lane.algorithm);
    // A new limiter starts fresh: the stream's start decides as it did.
    const again = api.limiter(lane);
    for (let i = 0; i < 20; i++) assert.equal(again.check(requests[i].t, requests[i].cost, requests[i].key).allowed, report.allowed[i], `${lane.algorithm} again, ${i}`);
    again.free();
    live.free();
  }
});

test('a key is its own: one key refused leaves the others whole', () => {
  const live = api.limiter({ algorithm: 'fixed_window', limit: 2, period_ms: 1000 });
  assert.equal(live.check(0, 2, 'a').allowed, true);
  const refused = live.check(1, 1, 'a');
  assert.equal(refused.status, 429);
  assert.equal(refused.headers['Retry-After'], '1');
  assert.equal(live.check(2, 1, 'b').allowed, true);
  assert.equal(live.check(3).allowed, true, 'no key is the key ""');
  assert.equal(live.check(1000, 2, 'a').allowed, true, 'the next window');
  live.free();
});

test('bad input is one line, never a trap; the limiter still works after it', () => {
  const { limiter } = api;
  const refused = (f, type, message) =>
    assert.throws(f, (e) => {
      assert.ok(e instanceof type, `${e}`);
      assert.equal(e.message, message);
      return !e.message.includes('\n');
    });
  refused(() => limiter(5), TypeError, 'limiter(config): config must be an object, got a number');
  refused(() => limiter(null), TypeError, 'limiter(config): config must be an object, got null');
  refused(() => limiter([]), TypeError, 'limiter(config): config must be an object, got an array');
  refused(() => limiter({ algorithm: 'gcra', limit: 0, period_ms: 1000 }), Error, 'limit: must be > 0');
  refused(() => limiter({ algorithm: 'gcra', limit: 5 }), Error, 'period_ms: required');
  refused(() => limiter({ algorithm: 'gcra', period_ms: NaN }), Error, 'period_ms: must be a finite number, got NaN');
  // The engine's message, as simulate gives it for the same lane (less its path).
  const simulated = (lane) => {
    try {
      api.simulate({ requests: [0], limiters: [lane] });
    } catch (e) {
      return e.message.replace('limiters[0].', '');
    }
    return 'simulate took it';
  };
  for (const lane of [
    { algorithm: 'nope' },
    { algorithm: 'gcra', limit: 5, period_ms: 1000, burst: 2 ** 40 },
    { algorithm: 'nginx', delay: 1, nodelay: true },
    { algorithm: 'gcra', limt: 5 },
  ]) {
    refused(() => limiter(lane), Error, simulated(lane));
  }
  const live = limiter({ algorithm: 'token_bucket', limit: 5, period_ms: 1000 });
  const check = (...args) => () => live.check(...args);
  refused(check('5'), TypeError, 'check(now, cost, key): now must be a number, got a string');
  refused(check(), TypeError, 'check(now, cost, key): now must be a number, got undefined');
  refused(check(NaN), Error, 'now: must be a finite number, got NaN');
  refused(check(Infinity), Error, 'now: must be a finite number, got Infinity');
  refused(check(-1), Error, 'now: must be an integer ≥ 0, got -1');
  refused(check(1.5), Error, 'now: must be an integer number of ms, got 1.5');
  refused(check(2 ** 53), Error, 'now: 9007199254740992 is too large (at most 9007199254740991)');
  refused(check(0, 0), Error, 'cost: must be > 0');
  refused(check(0, 6), Error, 'cost: 6 exceeds what this limiter can ever allow at once (5), so it could never pass');
  refused(check(0, 1.5), Error, 'cost: must be an integer, got 1.5');
  refused(check(0, '1'), TypeError, 'check(now, cost, key): cost must be a number, got a string');
  refused(check(0, 1, 7), TypeError, 'check(now, cost, key): key must be a string, got a number');
  refused(check(0, 1, 'k'.repeat(65)), Error, 'key: must be at most 64 characters');
  refused(check(0, 1, 'k'.repeat(1e6)), Error, 'key: must be at most 64 characters');
  assert.equal(live.check(100, 1, 'a').allowed, true);
  // Time never goes backwards (across keys too, as the engine's keyed store).
  const back = (t) => `time went backwards: ${t} ms is earlier than the previous request at 100 ms (streams must be sorted by time)`;
  refused(check(99, 1, 'a'), Error, back(99));
  refused(check(50, 1, 'b'), Error, back(50));
  assert.equal(live.check(100, 1, 'a').allowed, true, 'equal times are fine');
  assert.equal(live.check(2 ** 53 - 1, 5, 'a').allowed, true);
  live.free();
});

test('the JavaScript lines `ratelab lua` prints run as printed', async () => {
  const out = spawnSync(cli, ['lua', 'gcra', '--limit', '5', '--period', '10s', '--burst', '2'], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const marker = '# And in JavaScript (ratelab.js in a page; Node and Workers load ratelab-files.js):\n';
  assert.ok(out.stderr.includes(marker), out.stderr);
  const js = out.stderr.slice(out.stderr.indexOf(marker) + marker.length);
  assert.match(js, /^import \{ load \} from '\.\/ratelab\.js';\n/);
  // The import is this test's: the rest runs as printed, against the built API.
  const body = js.replace(/^import .*\n/, '');
  const AsyncFunction = (async () => {}).constructor;
  const run = new AsyncFunction('load', `${body}\nreturn { status, headers, body, limit };`);
  const got = await run(async () => api);
  assert.equal(got.status, 200);
  assert.equal(got.headers['RateLimit-Policy'], '"default";q=5;w=10');
  assert.equal(got.body, null);
  got.limit.free();
});

test('loaded the Workers way: compiled modules given, no fetch, no document, no window', async () => {
  // The Worker: an ES module with a fetch handler, its wasm given as bindings.
  await writeFile(
    join(dir, 'app.mjs'),
    `import { load } from './ratelab-files.js';
let limit;
export default {
  async fetch(request, env) {
    limit ??= (await load({ wasm: env.wasm, chunks: env.chunks })).limiter({ algorithm: 'gcra', limit: 2, period_ms: 1000, burst: 2 });
    const now = Number(new URL(request.url).searchParams.get('t'));
    const d = limit.check(now, 1, request.headers.get('x-api-key') ?? '');
    return new Response(d.body ?? 'hello', { status: d.status, headers: d.headers });
  },
};
`,
  );
  // A child process, so that the globals a Worker lacks can be taken away first.
  const script = `
    for (const name of ['fetch', 'document', 'window', 'Worker', 'XMLHttpRequest', 'location']) delete globalThis[name];
    const { readFile, readdir } = await import('node:fs/promises');
    const dir = ${JSON.stringify(dir)};
    // What a Worker's bundler gives: each .wasm as a compiled WebAssembly.Module.
    const env = { wasm: await WebAssembly.compile(await readFile(dir + '/ratelab-web_bg.wasm')), chunks: {} };
    for (const name of await readdir(dir)) {
      if (name.endsWith('.wasm') && name !== 'ratelab-web_bg.wasm') env.chunks[name] = await WebAssembly.compile(await readFile(dir + '/' + name));
    }
    if (typeof fetch !== 'undefined' || typeof document !== 'undefined' || typeof window !== 'undefined') throw new Error('a global is left');
    const worker = (await import(${JSON.stringify(pathToFileURL(join(dir, 'app.mjs')).href)})).default;
    const out = [];
    for (let i = 0; i < 3; i++) {
      const r = await worker.fetch(new Request('https://example.test/?t=' + i * 10, { headers: { 'x-api-key': 'k' } }), env);
      out.push([r.status, r.headers.get('retry-after'), await r.text()]);
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout);
  assert.deepEqual(got.map((x) => x[0]), [200, 200, 429]);
  assert.equal(got[2][1], '1');
  assert.deepEqual(JSON.parse(got[2][2]), { error: 'rate_limit_exceeded', retry_after_seconds: 1 });
});
