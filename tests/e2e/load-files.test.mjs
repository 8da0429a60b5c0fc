// ratelab-files.js's `load({ wasm, chunks })` when a chunk is missing or cannot be
// used: the call rejects with the documented one line (`load(options): chunks has
// no …` naming each missing file), never with an error of an unrelated kind, a
// wasm trap or a promise that never settles; and a later call with the files given
// loads the API, which then decides. Each case runs in a Node of its own (a module
// loaded once stays loaded), killed if it has not finished in 60 s.
// Needs dist/ (cargo xtask test --only build).
import assert from 'node:assert/strict';
import { test, before, after } from 'node:test';
import { spawnSync } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distAsModules } from './dist-modules.mjs';

let dir;

before(async () => {
  dir = await distAsModules('ratelab-load-files-');
});

after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const MISSING = /^load\(options\): chunks has no ([\w.-]+\.wasm(?:, [\w.-]+\.wasm)*): give every \.wasm file beside ratelab-web\.js$/;

/**
 * Runs `body` in a fresh Node in the copy of dist/, with `load`, `wasm` (the first
 * module's bytes), `chunks` (every other .wasm file's bytes by name) and
 * `attempt(options)` in scope, and returns what it returns. `attempt` is
 * `load(options)`'s outcome: `{ api }` (the API's names, and whether its live
 * limiter decides) or `{ error, message }`, the rejection's kind and text.
 */
function fresh(body) {
  const script = `
    const { readFile, readdir } = await import('node:fs/promises');
    const dir = ${JSON.stringify(dir)};
    const { load } = await import(${JSON.stringify(pathToFileURL(join(dir, 'ratelab-files.js')).href)});
    const wasm = await readFile(dir + '/ratelab-web_bg.wasm');
    const chunks = {};
    for (const name of await readdir(dir)) {
      if (name.endsWith('.wasm') && name !== 'ratelab-web_bg.wasm') chunks[name] = await readFile(dir + '/' + name);
    }
    const attempt = async (options) => {
      try {
        const api = await load(options);
        const live = api.limiter({ algorithm: 'gcra', limit: 1, period_ms: 1000 });
        const decided = [live.check(0).status, live.check(1).status];
        live.free();
        return { api: Object.keys(api).sort(), decided };
      } catch (e) {
        return { error: e?.constructor?.name ?? typeof e, message: String(e?.message ?? e) };
      }
    };
    const out = await (async () => { ${body} })();
    process.stdout.write(JSON.stringify(out));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    cwd: dir,
    timeout: 60_000,
  });
  assert.equal(r.signal, null, `killed (${r.signal}): load() did not settle in 60 s\n${r.stderr}`);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const LOADED = { api: ['limiter', 'scenarios', 'simulate', 'simulateJson'], decided: [200, 429] };

/** The chunks the API needs: those `load` names when given none. */
function needed() {
  const [none] = fresh(`return [await attempt({ wasm, chunks: {} })];`);
  assert.equal(none.error, 'Error', JSON.stringify(none));
  const m = none.message.match(MISSING);
  assert.ok(m, none.message);
  return m[1].split(', ');
}

test('no chunks given: one line naming the files the API needs; then, given them, it loads', async () => {
  const names = needed();
  const files = (await readdir(dir)).filter((n) => n.endsWith('.wasm'));
  for (const n of names) assert.ok(files.includes(n), `${n} is a file of dist/ (${files})`);
  const [none, again, all] = fresh(`return [
    await attempt({ wasm, chunks: {} }),
    await attempt({ wasm, chunks: {} }),
    await attempt({ wasm, chunks }),
  ];`);
  assert.deepEqual(none, again, 'a second call fails the same way (it tries again)');
  assert.deepEqual(all, LOADED);
});

test('each needed chunk missing alone is named alone, and is all that was missing', () => {
  for (const name of needed()) {
    const [without, all] = fresh(`
      const { [${JSON.stringify(name)}]: _, ...rest } = chunks;
      return [await attempt({ wasm, chunks: rest }), await attempt({ wasm, chunks })];
    `);
    assert.deepEqual(
      without,
      { error: 'Error', message: `load(options): chunks has no ${name}: give every .wasm file beside ratelab-web.js` },
      name,
    );
    assert.deepEqual(all, LOADED, `${name} given again`);
  }
});

test('a chunk that cannot be used (not wasm, cut short, another file, an emptied buffer) is one line, no trap, and a later call loads', () => {
  for (const name of needed()) {
    const cases = {
      'not wasm': `new TextEncoder().encode('<!doctype html><title>404</title>')`,
      'cut short': `chunks[name].subarray(0, chunks[name].length >> 1)`,
      'another file': `wasm`,
      'an emptied buffer': `(() => { const b = chunks[name].buffer.slice(0); structuredClone(b, { transfer: [b] }); return b; })()`,
    };
    for (const [what, bad] of Object.entries(cases)) {
      const [broken, all] = fresh(`
        const name = ${JSON.stringify(name)};
        return [await attempt({ wasm, chunks: { ...chunks, [name]: ${bad} } }), await attempt({ wasm, chunks })];
      `);
      const where = `${name}, ${what}: ${JSON.stringify(broken)}`;
      assert.ok(broken.error, `rejected: ${where}`);
      assert.notEqual(broken.error, 'RuntimeError', `no trap: ${where}`);
      assert.ok(!broken.message.includes('\n'), `one line: ${where}`);
      const [, files, why] = broken.message.match(/^load\(options\): chunks' ([\w.-]+\.wasm(?:, [\w.-]+\.wasm)*) (.*)$/) ?? [];
      assert.ok(files?.split(', ').includes(name), `names the file: ${where}`);
      assert.equal(
        why,
        what === 'another file'
          ? 'did not load with this wasm: give the .wasm files of one build'
          : 'is not WebAssembly: give the .wasm files beside ratelab-web.js as they are',
        where,
      );
      if (what !== 'another file') assert.equal(files, name, `that file alone: ${where}`);
      assert.deepEqual(all, LOADED, `then given right: ${where}`);
    }
  }
});
