// What the Node-side tests of ratelab-files.js share (live, load-files, workerd):
// dist/'s files as ES modules in a temporary folder, the chunks' bytes, and one
// deterministic keyed stream with a lane of each of the eight limiters.
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
export const dist = resolve(process.env.RATELAB_DIST ?? join(here, '..', '..', 'dist'));

/**
 * dist/'s .js and .wasm files copied into a new temporary folder (named after
 * `prefix`) with a package.json that says they are ES modules (Node 20 reads a .js
 * file as CommonJS without one). The caller removes the folder.
 */
export async function distAsModules(prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  for (const name of await readdir(dist)) {
    if (name.endsWith('.js') || name.endsWith('.wasm')) await cp(join(dist, name), join(dir, name));
  }
  await writeFile(join(dir, 'package.json'), '{"type": "module"}\n');
  return dir;
}

/** Every .wasm file of `from` but the first module, by name. */
export async function chunkBytes(from) {
  const chunks = {};
  for (const name of await readdir(from)) {
    if (name.endsWith('.wasm') && name !== 'ratelab-web_bg.wasm') chunks[name] = await readFile(join(from, name));
  }
  return chunks;
}

/** A deterministic keyed stream: times that repeat and jump, three keys, costs 1 and 2. */
export function keyedStream(n) {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const out = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    const r = next() % 100;
    t += r < 20 ? 0 : r < 90 ? next() % 700 : 5000 + (next() % 20000);
    out.push({ t, key: ['alice', 'bob', 'carol'][next() % 3], cost: next() % 4 === 0 ? 2 : 1 });
  }
  return out;
}

/** A lane of each of the eight limiters, small enough that the stream above is refused often. */
export const EIGHT_LANES = [
  { algorithm: 'fixed_window', limit: 5, period_ms: 10000 },
  { algorithm: 'fixed_window_anchored', limit: 5, period_ms: 10000 },
  { algorithm: 'sliding_log', limit: 5, period_ms: 10000 },
  { algorithm: 'sliding_window_counter', limit: 5, period_ms: 10000 },
  { algorithm: 'token_bucket', limit: 5, period_ms: 10000, burst: 4 },
  { algorithm: 'leaky_queue', limit: 5, period_ms: 10000, burst: 4 },
  { algorithm: 'gcra', limit: 5, period_ms: 10000, burst: 3 },
  { algorithm: 'nginx', limit: 10, period_ms: 10000, burst: 4, delay: 1 },
];
