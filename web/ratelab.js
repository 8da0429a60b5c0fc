// The one loader every page shares: instantiates the wasm once (however many
// playgrounds, elements and API calls a page has) and hands out the API.
// Relative to this file, so a docs site can serve dist/ from any folder.
import init, { simulate, simulateJson, scenarios, mount } from './ratelab-web.js';

let ready;

/** Resolves to `{ simulate, simulateJson, scenarios, mount }` once the wasm is running. */
export function load() {
  ready ??= init({ module_or_path: new URL('./ratelab-web_bg.wasm', import.meta.url) })
    .then(() => ({ simulate, simulateJson, scenarios, mount }));
  return ready;
}
