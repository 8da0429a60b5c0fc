// The playground page: loading the wasm runs its start function, which mounts the
// app into <main id="ratelab"> with the setup from the URL.
import { start } from './ratelab.js';

start().catch((e) => {
  const main = document.getElementById('ratelab');
  if (main) main.textContent = `ratelab could not start: ${e}`;
});
