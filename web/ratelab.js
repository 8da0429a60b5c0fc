// The one loader every page shares: instantiates the wasm once (however many
// playgrounds, elements and API calls a page has) and hands out the API.
// Relative to this file, so a docs site can serve dist/ from any folder.
import init, { simulate, simulateJson, scenarios, limiter, mount, setWorker, loadApi } from './ratelab-web.js';

const STYLESHEET = new URL('./style.css', import.meta.url).href;
const WORKER = new URL('./worker.js', import.meta.url).href;
/** The longest text `simulateJson` takes (crates/web/src/api.rs, `MAX_TEXT`). */
const MAX_TEXT = 2 ** 28;

let started;
let loaded;

/**
 * `mount`, plus the stylesheet: linked once into the document (or the shadow
 * root) the element is in, if it is not there yet. Every rule in style.css
 * matches only inside a playground, so linking it restyles nothing of the host.
 */
function mountStyled(element, options) {
  // The wasm checks the arguments first (a TypeError or an Error, nothing mounted).
  const playground = mount(element, options);
  const root = element.getRootNode();
  const into = root === element.ownerDocument ? root.head : root;
  const linked = [...into.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === STYLESHEET);
  if (!linked) {
    const link = element.ownerDocument.createElement('link');
    link.rel = 'stylesheet';
    link.href = STYLESHEET;
    into.append(link);
  }
  return playground;
}

// Compiled while it downloads (the request index.html preloads). Compiling here
// rather than inside the glue keeps the WebAssembly.Module, which heavy runs hand
// to their worker (worker.js) so that it neither downloads nor compiles it again.
async function compile(url) {
  const response = fetch(url);
  try {
    return await WebAssembly.compileStreaming(response);
  } catch {
    // A server that does not say application/wasm: compile from the bytes.
    return WebAssembly.compile(await (await response).arrayBuffer());
  }
}

// simulateAsync / simulateJsonAsync: the synchronous call, run in worker.js on a
// structured clone of the argument. One worker serves every call in flight (each
// message carries an id, each answer goes to its own promise) and is stopped
// when none is left, so that the memory a big run grew is given back. Where no
// worker can run (none can be constructed, the page's policy forbids it, it fails
// to load, or the argument cannot be cloned: a Proxy, a getter that throws, a
// function) the synchronous call runs on this thread in a later task, so the answer
// or the error is exactly the synchronous call's.
const calls = { worker: null, broken: false, next: 0, pending: new Map() };

/** Runs `run()` in a later task of this thread; its value or its error settles the promise. */
function later(run) {
  return new Promise((resolve, reject) => {
    setTimeout(() => {
      try {
        resolve(run());
      } catch (e) {
        reject(e);
      }
    }, 0);
  });
}

/** Runs `run()` now; its error (a bad argument, refused before any work) rejects. */
function now(run) {
  return new Promise((resolve) => resolve(run()));
}

function stopWorker() {
  calls.worker?.terminate();
  calls.worker = null;
}

/** The calls in flight go to this thread (the worker could not run them). */
function abandonWorker() {
  calls.broken = true;
  stopWorker();
  const left = [...calls.pending.values()];
  calls.pending.clear();
  for (const call of left) later(call.here).then(call.resolve, call.reject);
}

function answer({ data }) {
  const call = calls.pending.get(data?.id);
  if (!call) return;
  if (data.unavailable) {
    abandonWorker();
    return;
  }
  calls.pending.delete(data.id);
  if (data.error) {
    call.reject(data.error.name === 'TypeError' ? new TypeError(data.error.message) : new Error(data.error.message));
  } else {
    call.resolve(data.value);
  }
  if (calls.pending.size === 0) stopWorker();
}

function worker() {
  if (calls.broken) return null;
  if (!calls.worker) {
    try {
      calls.worker = new Worker(WORKER, { type: 'module' });
    } catch {
      calls.broken = true;
      return null;
    }
    calls.worker.onmessage = answer;
    calls.worker.onerror = (e) => {
      e.preventDefault();
      abandonWorker();
    };
    calls.worker.onmessageerror = abandonWorker;
  }
  return calls.worker;
}

/** `call` (the export's name) with `arg` in the worker; `here()` is the same call on this thread. */
function inWorker(module, call, arg, here) {
  const w = worker();
  if (!w) return later(here);
  const id = calls.next++;
  try {
    // The structured clone is taken here, so a later change to `arg` changes nothing.
    w.postMessage({ module, id, call, arg });
  } catch {
    if (calls.pending.size === 0) stopWorker();
    return later(here);
  }
  return new Promise((resolve, reject) => calls.pending.set(id, { resolve, reject, here }));
}

function asyncApi(module) {
  return {
    simulateAsync(config) {
      // Not an object: the synchronous call's TypeError, at once.
      if (typeof config !== 'object' || config === null || Array.isArray(config)) return now(() => simulate(config));
      return inWorker(module, 'simulate', config, () => simulate(config));
    },
    simulateJsonAsync(text) {
      // Not a string, or too long: the synchronous call's error, at once (it
      // checks both before reading the text).
      if (typeof text !== 'string' || text.length > MAX_TEXT) return now(() => simulateJson(text));
      return inWorker(module, 'simulateJson', text, () => simulateJson(text));
    },
  };
}

/** The wasm running (once per page); resolves to the compiled module. */
function boot() {
  started ??= compile(new URL('./ratelab-web_bg.wasm', import.meta.url)).then(async (module) => {
    await init({ module_or_path: module });
    setWorker(WORKER, module);
    return module;
  });
  return started;
}

/**
 * Resolves to `{ mount }` once the wasm is running: what the page, the element and
 * the iframe need. The API's runs are not fetched (they are a chunk, see `load`).
 */
export function start() {
  return boot().then(() => ({ mount: mountStyled }));
}

/**
 * Resolves to `{ simulate, simulateJson, simulateAsync, simulateJsonAsync,
 * scenarios, limiter, mount }` once the wasm is running and the API's chunk is
 * here. (Where nothing can be fetched, Node or a Worker: ratelab-files.js.)
 */
export function load() {
  loaded ??= boot().then(async (module) => {
    await loadApi();
    return { simulate, simulateJson, ...asyncApi(module), scenarios, limiter, mount: mountStyled };
  });
  // A chunk that could not be fetched is asked for again by the next call.
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
