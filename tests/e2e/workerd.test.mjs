// The live limiter in a real Cloudflare Workers runtime: workerd (the npm package,
// a devDependency) serving a Worker that imports ratelab-files.js and the .wasm
// files as compiled modules, as a Worker's bundle gives them (no fetch, no DOM).
// Its decisions equal `simulate`'s in Node for each of the eight limiters, and, as
// a real rate limiter answering HTTP requests, its statuses and Retry-After too.
// workerd runs on a free 127.0.0.1 port in a temporary folder and is stopped
// whatever happens. Needs dist/ (cargo xtask test --only build) and npm ci.
import assert from 'node:assert/strict';
import { test, before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EIGHT_LANES, distAsModules, keyedStream } from './dist-modules.mjs';

// The `workerd` package's binary for this platform (@cloudflare/workerd-linux-64 here).
const workerdBinary = createRequire(import.meta.url)('workerd').default;

let dir;
let workerd;
let base;
let log = '';
let api;

/** A port nothing listens on now. */
function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/** Stops workerd (TERM, then KILL if it lingers) and waits for it to end. */
async function stop() {
  const child = workerd;
  workerd = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await ended;
  clearTimeout(timer);
}

// Whatever happens to this process, workerd does not outlive it.
process.on('exit', () => workerd?.kill('SIGKILL'));

const WORKER = (chunks) => `import { load } from './ratelab-files.js';
import wasm from './ratelab-web_bg.wasm';
${chunks.map((name, i) => `import c${i} from './${name}';`).join('\n')}
const chunks = { ${chunks.map((name, i) => `${JSON.stringify(name)}: c${i}`).join(', ')} };
let api;
let live;
export default {
  async fetch(request) {
    api ??= await load({ wasm, chunks });
    const url = new URL(request.url);
    try {
      if (url.pathname === '/run') {
        // One lane over a stream: every decision, from a limiter of its own.
        const { lane, requests } = await request.json();
        const limiter = api.limiter(lane);
        const out = requests.map((r) => {
          const d = limiter.check(r.t, r.cost, r.key);
          return { allowed: d.allowed, wait_ms: d.wait_ms, status: d.status, retry: d.headers['Retry-After'] ?? null };
        });
        limiter.free();
        return Response.json(out);
      }
      // A rate limiter in front of a handler: one request, decided at ?t= for its key.
      live ??= api.limiter({ algorithm: 'gcra', limit: 3, period_ms: 1000, burst: 2 });
      const d = live.check(Number(url.searchParams.get('t')), 1, request.headers.get('x-api-key') ?? '');
      return new Response(d.body ?? 'hello', { status: d.status, headers: d.headers });
    } catch (e) {
      return new Response(String(e?.message ?? e), { status: 500 });
    }
  },
};
`;

const CONFIG = (port, modules) => `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
${modules.map((m) => `    ${m},`).join('\n')}
  ],
  compatibilityDate = "2025-01-01",
);
`;

before(async () => {
  // Node reads the same files for `simulate` (as ES modules).
  dir = await distAsModules('ratelab-workerd-');
  const chunks = (await readdir(dir)).filter((n) => n.endsWith('.wasm') && n !== 'ratelab-web_bg.wasm');
  await writeFile(join(dir, 'worker.mjs'), WORKER(chunks));
  const modules = [
    '(name = "worker.mjs", esModule = embed "worker.mjs")',
    ...['ratelab-files.js', 'ratelab-web.js', '__wasm_split.js'].map((n) => `(name = "${n}", esModule = embed "${n}")`),
    ...['ratelab-web_bg.wasm', ...chunks].map((n) => `(name = "${n}", wasm = embed "${n}")`),
  ];
  const port = await freePort();
  await writeFile(join(dir, 'config.capnp'), CONFIG(port, modules));
  workerd = spawn(workerdBinary, ['serve', 'config.capnp'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  workerd.stdout.on('data', (b) => (log += b));
  workerd.stderr.on('data', (b) => (log += b));
  base = `http://127.0.0.1:${port}`;
  // Ready when it answers; an exit, or no answer within 60 s, is a failure.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (workerd.exitCode !== null) throw new Error(`workerd exited (${workerd.exitCode}): ${log}`);
    try {
      const r = await fetch(`${base}/?t=0`, { headers: { 'x-api-key': 'warm-up' } });
      await r.text();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`workerd did not answer on ${base} in 60 s: ${log}`);
      await new Promise((ok) => setTimeout(ok, 200));
    }
  }
  const { load } = await import(pathToFileURL(join(dir, 'ratelab-files.js')).href);
  const chunkBytes = {};
  for (const name of chunks) chunkBytes[name] = await readFile(join(dir, name));
  api = await load({ wasm: await readFile(join(dir, 'ratelab-web_bg.wasm')), chunks: chunkBytes });
});

after(async () => {
  await stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('in workerd, each limiter decides as simulate does, request for request', async () => {
  const requests = keyedStream(600);
  for (const lane of EIGHT_LANES) {
    const r = await fetch(`${base}/run`, { method: 'POST', body: JSON.stringify({ lane, requests }) });
    const text = await r.text();
    assert.equal(r.status, 200, `${lane.algorithm}: ${text}`);
    const got = JSON.parse(text);
    const report = api.simulate({ requests, limiters: [lane] }).results[0];
    assert.equal(got.length, requests.length);
    got.forEach((d, i) => {
      const where = `${lane.algorithm}, request ${i} (${JSON.stringify(requests[i])})`;
      assert.equal(d.allowed, report.allowed[i], where);
      assert.equal(d.wait_ms, report.wait_ms[i], where);
      assert.equal(d.status, d.allowed ? 200 : 429, where);
      assert.equal(d.retry === null, d.allowed, where);
    });
    const denied = got.filter((d) => !d.allowed).length;
    assert.ok(denied > 0 && denied < requests.length, `${lane.algorithm}: ${denied} denied`);
  }
});

test('in workerd, a rate limiter in front of a handler: 200 or 429 with Retry-After, as simulate', async () => {
  const lane = { algorithm: 'gcra', limit: 3, period_ms: 1000, burst: 2 };
  const times = [0, 0, 0, 100, 300, 333, 334, 700, 1000, 1000, 1500, 5000];
  const report = api.simulate({ requests: times, limiters: [lane] }).results[0];
  for (const [i, t] of times.entries()) {
    const r = await fetch(`${base}/?t=${t}`, { headers: { 'x-api-key': 'client-42' } });
    const body = await r.text();
    const where = `request ${i} at ${t}: ${r.status} ${body}`;
    assert.equal(r.status, report.allowed[i] ? 200 : 429, where);
    if (r.status === 429) {
      assert.match(r.headers.get('retry-after') ?? '', /^[1-9]\d*$/, where);
      assert.deepEqual(JSON.parse(body), { error: 'rate_limit_exceeded', retry_after_seconds: Number(r.headers.get('retry-after')) }, where);
    } else {
      assert.equal(body, 'hello', where);
    }
    assert.match(r.headers.get('ratelimit-policy') ?? '', /^"default";q=3;w=1$/, where);
  }
  assert.ok(report.allowed.includes(false) && report.allowed.includes(true));
  // Another key is its own.
  assert.equal((await fetch(`${base}/?t=5000`, { headers: { 'x-api-key': 'other' } })).status, 200);
});
