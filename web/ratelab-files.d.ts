// The public types of ratelab-files.js: the JS API loaded from given files, for
// Node and Workers (no fetch, no DOM). Checked by `cargo xtask test` (tsc --strict).
import type { Ratelab } from './ratelab.js';

/** A .wasm file given rather than fetched: its bytes, or the compiled module. */
export type WasmInput = WebAssembly.Module | ArrayBuffer | ArrayBufferView;

/** The files `load` runs. */
export interface LoadOptions {
  /** ratelab-web_bg.wasm. */
  wasm: WasmInput;
  /** The other .wasm files beside it, by file name (`split_api.wasm`, `chunk_11.wasm`, …). */
  chunks: Record<string, WasmInput>;
}

/** The API without a page: the runs and the live limiter. */
export type RatelabFiles = Pick<Ratelab, 'simulate' | 'simulateJson' | 'scenarios' | 'limiter'>;

/**
 * Runs the given files (nothing is fetched) and resolves to the API. Rejects with
 * a `TypeError` for options of another shape, with one line naming the file if a
 * chunk is missing, is not WebAssembly or is from another build.
 */
export function load(options: LoadOptions): Promise<RatelabFiles>;
