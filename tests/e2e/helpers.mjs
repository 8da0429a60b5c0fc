// Shared by the end-to-end tests: a static server for dist/ on a free loopback
// port (optionally with a Content-Security-Policy on HTML), the browser, and a page
// that fails its test on any page error, console error, failed request or CSP
// violation.
import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
export const dist = resolve(process.env.RATELAB_DIST ?? join(here, '..', '..', 'dist'));
export const artifacts = process.env.RATELAB_E2E_ARTIFACTS ?? join(here, '..', '..', 'target', 'e2e');
export const fixtures = join(here, 'fixtures');
const executablePath = process.env.RATELAB_CHROMIUM ?? '/usr/bin/chromium';
const args = (process.env.RATELAB_CHROMIUM_FLAGS ??
  '--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run ' +
  '--disable-background-networking --disable-component-update').split(/\s+/).filter(Boolean);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/** The strict policy the docs-page test serves HTML with. */
export const STRICT_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "frame-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

/** Serves `root` on 127.0.0.1; `/` is index.html; HTML gets `csp` if given. */
export function serve(root, { csp } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? path + 'index.html' : path));
    if (!file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
      if (csp && extname(file) === '.html') headers['content-security-policy'] = csp;
      res.writeHead(200, headers);
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

/** Chromium, headless, as root; `extra` flags go to its browser process. */
export function launch(extra = []) {
  return chromium.launch({ executablePath, args: [...args, ...extra], headless: true });
}

/** An init script: keeps the page's CSP violations in `window.__violations`. */
export function recordViolations() {
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
  });
}

/**
 * A fresh page; the test fails at its end if the page reported an error, a request
 * failed, or a Content-Security-Policy violation happened (in any frame), other
 * than the `expected` ones.
 */
export async function open(t, browser, url, { width = 1280, height = 900, reducedMotion, expected = [] } = {}) {
  const context = await browser.newContext({
    viewport: { width, height },
    reducedMotion: reducedMotion ?? 'no-preference',
  });
  await context.addInitScript(recordViolations);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  t.after(async () => {
    for (const frame of page.frames()) {
      const v = await frame.evaluate(() => window.__violations ?? []).catch(() => []);
      problems.push(...v.map((x) => `CSP violation: ${x}`));
    }
    await context.close();
    // `expected`: patterns of the problems a test causes on purpose (a chunk it
    // blocks); each must have happened, and nothing else may.
    for (const pattern of expected) {
      assert.ok(problems.some((p) => pattern.test(p)), `expected a problem matching ${pattern}: ${problems.join('; ')}`);
    }
    const left = problems.filter((p) => !expected.some((pattern) => pattern.test(p)));
    assert.deepEqual(left, [], 'the page reported problems');
  });
  await page.goto(url);
  return page;
}

/**
 * In the page: records each Worker it starts (`window.__workers`, url and type) and
 * the duration of each long task (`window.__long`), for tests that check heavy work
 * leaves the main thread. Durations are printed, never asserted.
 */
export async function watchWorkersAndLongTasks(page) {
  await page.evaluate(() => {
    window.__workers = [];
    const Real = window.Worker;
    window.Worker = class extends Real {
      constructor(url, options) {
        super(url, options);
        window.__workers.push({ url: String(url), type: options?.type });
      }
    };
    window.__long = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__long.push(e.duration);
    }).observe({ type: 'longtask' });
  });
}

/**
 * For a test file that only needs dist/ and a browser: serves dist/ on a free
 * loopback port and launches Chromium before its tests, closes both after them
 * (whatever happened). Returns `{ base, browser }`, filled in by then.
 */
export function useDist() {
  const site = { base: '', browser: null, server: null };
  before(async () => {
    site.server = await serve(dist);
    site.base = `http://127.0.0.1:${site.server.address().port}/`;
    site.browser = await launch();
  });
  after(async () => {
    await site.browser?.close();
    await new Promise((ok) => (site.server ? site.server.close(ok) : ok()));
  });
  return site;
}

/**
 * For a test file with host pages of its own: writes `files` (`{ name: text }`)
 * into a new temporary folder beside `ratelab/` (dist/, linked) and an empty
 * favicon (Chromium's own request for it would 404 and log an error), serves the
 * folder under the strict CSP and launches Chromium before its tests; closes both
 * and removes the folder after them, whatever happened. Returns `{ base, browser,
 * dir }`, filled in by then.
 */
export function useSite(name, files) {
  const site = { base: '', browser: null, server: null, dir: '' };
  before(async () => {
    site.dir = await mkdtemp(join(tmpdir(), `ratelab-${name}-`));
    await symlink(dist, join(site.dir, 'ratelab'));
    for (const [file, text] of Object.entries({ 'favicon.ico': '', ...files })) {
      await writeFile(join(site.dir, file), text);
    }
    site.server = await serve(site.dir, { csp: STRICT_CSP });
    site.base = `http://127.0.0.1:${site.server.address().port}/`;
    site.browser = await launch();
  });
  after(async () => {
    await site.browser?.close();
    await new Promise((ok) => (site.server ? site.server.close(ok) : ok()));
    if (site.dir) await rm(site.dir, { recursive: true, force: true });
  });
  return site;
}
