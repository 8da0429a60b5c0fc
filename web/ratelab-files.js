// The JS API where nothing is fetched and there is no DOM (Node, a Cloudflare
// Worker): `load({ wasm, chunks })` with the files given, bytes or compiled
// modules. The same wasm and the same calls as ratelab.js's `load()`, less what
// needs a page (`mount`, and the `…Async` calls, which need a module worker).
// Not in the first load of the page: the page never imports this file.
import init, { simulate, simulateJson, scenarios, limiter, loadApi } from './ratelab-web.js';
import { __ratelab_chunks as chunksFrom } from './__wasm_split.js';

let loaded;

const isWasm = (b) => b instanceof WebAssembly.Module || b instanceof ArrayBuffer || ArrayBuffer.isView(b);

/**
 * Resolves to `{ simulate, simulateJson, scenarios, limiter }` once the wasm
 * given is running and the API's chunk is here. `wasm` is ratelab-web_bg.wasm,
 * `chunks` the other .wasm files beside it by name (only those the API needs are
 * read). Rejects with a `TypeError` for anything else, with one line naming the
 * file if a chunk is missing, is not WebAssembly or is from another build; a later
 * call tries again. Once loaded, later
 * calls resolve to the same API (their files are not read).
 */
export function load(options) {
  const { wasm, chunks } = options ?? {};
  if (!isWasm(wasm) || typeof chunks !== 'object' || chunks === null || !Object.values(chunks).every(isWasm)) {
    return Promise.reject(
      new TypeError(
        'load(options): options must be { wasm, chunks }: ratelab-web_bg.wasm, and the other .wasm files by name, as bytes or WebAssembly.Module',
      ),
    );
  }
  loaded ??= (async () => {
    const missing = [];
    const read = [];
    chunksFrom((path) => {
      const name = path.slice(2);
      // What the loader reads of a response (xtask/src/wasm.rs): `ok`, no
      // `application/wasm`, then `arrayBuffer()`, which WebAssembly.instantiate
      // takes as bytes or as a compiled module.
      if (Object.hasOwn(chunks, name)) {
        const arrayBuffer = () => {
          read.push(name);
          return chunks[name];
        };
        return Promise.resolve({ ok: true, headers: new Map(), arrayBuffer });
      }
      missing.push(name);
      // Handled here: the loader awaits a chunk's file only once the chunks it
      // needs have loaded, so with one of those missing too it never would, and
      // Node ends the process on a rejection nobody handled.
      const none = Promise.reject(new Error(`no ${name}`));
      none.catch(() => {});
      return none;
    });
    await init({ module_or_path: wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm) });
    try {
      await loadApi();
    } catch (e) {
      if (missing.length) throw new Error(`load(options): chunks has no ${missing.join(', ')}: give every .wasm file beside ratelab-web.js`);
      // The loader logged why a file did not instantiate; the call says which.
      const bad = read.filter((name) => !(chunks[name] instanceof WebAssembly.Module) && !WebAssembly.validate(chunks[name]));
      if (bad.length) throw new Error(`load(options): chunks' ${bad.join(', ')} is not WebAssembly: give the .wasm files beside ratelab-web.js as they are`);
      if (read.length) throw new Error(`load(options): chunks' ${read.join(', ')} did not load with this wasm: give the .wasm files of one build`);
      throw e;
    }
    return { simulate, simulateJson, scenarios, limiter };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
