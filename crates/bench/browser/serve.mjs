// A tiny static server on 127.0.0.1 for the browser benchmarks: each URL prefix
// maps to a directory. Pages are served cross-origin isolated (COOP + COEP), which
// gives performance.now() its fine resolution (5 µs instead of 100 µs) in Chromium.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves `mounts` ({ '/': dir, '/pkg/': dir2 }, longest prefix wins) on a free port. */
export function serve(mounts) {
  const table = Object.entries(mounts)
    .map(([prefix, dir]) => [prefix, resolve(dir)])
    .sort((a, b) => b[0].length - a[0].length);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const mount = table.find(([prefix]) => path.startsWith(prefix));
    if (!mount) {
      res.writeHead(404).end('not found');
      return;
    }
    const [prefix, root] = mount;
    const rest = path.slice(prefix.length);
    const file = normalize(join(root, rest === '' || rest.endsWith('/') ? rest + 'index.html' : rest));
    if (!file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok(server));
  });
}

/** Chromium's path and flags, as `cargo xtask` passes them (RATELAB_CHROMIUM*). */
export function chromiumOptions() {
  const executablePath = process.env.RATELAB_CHROMIUM ?? '/usr/bin/chromium';
  const args = (process.env.RATELAB_CHROMIUM_FLAGS ??
    '--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run ' +
    '--disable-background-networking --disable-component-update').split(/\s+/).filter(Boolean);
  return { executablePath, args, headless: true };
}

/** The median of the finite numbers in `xs` (NaN when there are none). */
export function median(xs) {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Self time per function from a CDP CPU profile, the heaviest first. */
export function printProfile(profile, count = 25) {
  const dt = new Map();
  const ids = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  ids.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (deltas[i] ?? 0) / 1000));
  const byName = new Map();
  let total = 0;
  for (const n of profile.nodes) {
    const ms = dt.get(n.id) ?? 0;
    total += ms;
    const cf = n.callFrame;
    const file = cf.url ? cf.url.split('/').pop() : '';
    const key = `${cf.functionName || '(anonymous)'}\t${file}`;
    byName.set(key, (byName.get(key) ?? 0) + ms);
  }
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, count);
  console.log(['bench', 'profile', total.toFixed(1), 'total ms sampled'].join('\t'));
  for (const [key, ms] of top) console.log(['bench', 'profile', ms.toFixed(1), key].join('\t'));
}
