// The one loader every page shares: instantiates the wasm once (however many
// playgrounds, elements and API calls a page has) and hands out the API.
// Relative to this file, so a docs site can serve dist/ from any folder.
import init, { simulate, simulateJson, scenarios, mount, setWorker, setServicePage } from './ratelab-web.js';

const STYLESHEET = new URL('./style.css', import.meta.url).href;

let ready;

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

/** Resolves to `{ simulate, simulateJson, scenarios, mount }` once the wasm is running. */
export function load() {
  ready ??= compile(new URL('./ratelab-web_bg.wasm', import.meta.url)).then(async (module) => {
    await init({ module_or_path: module });
    setWorker(new URL('./worker.js', import.meta.url).href, module);
    // Where a service scenario opens (the service build, README "The service view").
    setServicePage(new URL('./service/', import.meta.url).href);
    return { simulate, simulateJson, scenarios, mount: mountStyled };
  });
  return ready;
}
