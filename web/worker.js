// A module worker for heavy runs (lab D's sweep): the page posts its compiled
// WebAssembly.Module, so this instantiates the same wasm without downloading or
// compiling it again, runs the sweep and posts its rows back (crates/web/src/worker.rs).
import init, { sweepRows } from './ratelab-web.js';

self.onmessage = async ({ data }) => {
  try {
    await init({ module_or_path: data.module });
    self.postMessage({ rows: sweepRows(data.seed) });
  } catch (e) {
    self.postMessage({ error: String(e?.message ?? e) });
  }
};
