// A module worker for heavy runs: the page posts its compiled WebAssembly.Module,
// so this instantiates the same wasm without downloading or compiling it again.
// Two kinds of message:
// - `{ module, seed }`: lab D's sweep for the page's panel (crates/web/src/worker.rs),
//   answered with `{ rows }` or `{ error }`;
// - `{ module, read }`: the JSON box's big text, read (crates/web/src/import.rs),
//   answered with `{ read, head }` (bytes, transferred, and a text) or `{ error }`;
// - `{ module, id, call, arg }`: `simulateAsync` / `simulateJsonAsync` of the JS API
//   (ratelab.js), `arg` a structured clone of the caller's config or text, answered
//   with `{ id, value }` or `{ id, error: { name, message } }`. The same exported
//   function as the synchronous call runs on the clone, so results and messages are
//   the synchronous call's.
import init, { simulate, simulateJson, sweepRows, readImport, loadApi } from './ratelab-web.js';

let ready;

self.onmessage = async ({ data }) => {
  const { id } = data;
  try {
    ready ??= init({ module_or_path: data.module });
    await ready;
  } catch (e) {
    // No engine here: the page runs the call itself (or the sweep, on `error`).
    self.postMessage(id === undefined ? { error: String(e?.message ?? e) } : { id, unavailable: true });
    return;
  }
  try {
    if (typeof data.read === 'string') {
      const [read, head] = await readImport(data.read);
      self.postMessage({ read, head }, [read.buffer]);
    } else if (id === undefined) {
      self.postMessage({ rows: await sweepRows(data.seed) });
    } else {
      try {
        await loadApi();
      } catch {
        // The API's chunk could not be fetched here: the page runs the call.
        self.postMessage({ id, unavailable: true });
        return;
      }
      const value = data.call === 'simulateJson' ? simulateJson(data.arg) : simulate(data.arg);
      self.postMessage({ id, value });
    }
  } catch (e) {
    const error = { name: e?.name === 'TypeError' ? 'TypeError' : 'Error', message: String(e?.message ?? e) };
    self.postMessage(id === undefined ? { error: error.message } : { id, error });
  }
};
