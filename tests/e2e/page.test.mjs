// End-to-end: the page Trunk built (dist/), served by a tiny static server started
// here on a free loopback port, driven in headless Chromium by playwright-core.
// Run by `cargo xtask test` (step e2e), which sets the RATELAB_* variables.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.env.RATELAB_DIST ?? join(here, '..', '..', 'dist'));
const executablePath = process.env.RATELAB_CHROMIUM ?? '/usr/bin/chromium';
const args = (process.env.RATELAB_CHROMIUM_FLAGS ??
  '--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run ' +
  '--disable-background-networking --disable-component-update').split(/\s+/).filter(Boolean);
const artifacts = process.env.RATELAB_E2E_ARTIFACTS ?? join(here, '..', '..', 'target', 'e2e');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  // instantiateStreaming insists on this type.
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves `root` on 127.0.0.1; unknown paths get 404, `/` gets index.html. */
function serve(root) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? path + 'index.html' : path));
    if (!file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
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

let server;
let browser;
let url;

before(async () => {
  server = await serve(dist);
  url = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({ executablePath, args, headless: true });
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
});

/** A fresh page on the app, failing the test on any page error or console error. */
async function open(t) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  t.after(async () => {
    await context.close();
    assert.deepEqual(problems, [], 'the page reported problems');
  });
  await page.goto(url);
  return page;
}

test('the built page renders the playground', async (t) => {
  const page = await open(t);
  await page.locator('h1', { hasText: 'ratelab' }).waitFor();
  assert.equal(await page.title(), 'ratelab · a rate-limiting playground');
  assert.equal(await page.locator('.decision').textContent(), 'no request yet');
  assert.equal(await page.locator('button.send').textContent(), 'send a request');
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'playground.png') });
});

test('a click sends a request; the sixth at once is denied', async (t) => {
  const page = await open(t);
  const send = page.locator('button.send');
  const decision = page.locator('.decision');

  await send.click();
  await assert.doesNotReject(decision.filter({ hasText: 'allowed' }).waitFor());
  assert.equal(await decision.getAttribute('data-outcome'), 'allowed');
  assert.match(await page.locator('.explanation').textContent(), /allow$/);

  for (let i = 0; i < 5; i++) await send.click();
  await decision.filter({ hasText: 'denied' }).waitFor();
  assert.equal(await decision.textContent(), '0 s → denied');
  assert.equal(await page.locator('.log li').count(), 6);
});
