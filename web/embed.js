// embed.html?scenario=…&limiters=…: the playground for an <iframe>. Takes the same
// parameters as the page's URL (plus compact=1), never writes the URL, and tells
// its parent how tall it is: postMessage({type: 'ratelab:height', height}), which
// embed-resize.js on the parent page turns into the iframe's height; sent when it
// changes and whenever the parent asks ({type: 'ratelab:height?'}: a parent whose
// script started after the frame had posted missed that message).
import { start } from './ratelab.js';

const host = document.getElementById('embed');
const options = Object.fromEntries(new URLSearchParams(location.search));
// No height is posted while the frame says "Loading…": the parent keeps the height
// it reserved (embed-resize.js) until the playground's own, instead of shrinking
// the frame to a line and growing it again (560 → 120 → the full height).
let drawn = false;

start()
  .then(({ mount }) => {
    host.textContent = '';
    window.ratelabPlayground = mount(host, options);
    // The ↗ link opens the full playground beside this page, unless the URL names another.
    const page = options.playground ?? new URL('./index.html', location.href).href;
    const playground = window.ratelabPlayground;
    requestAnimationFrame(() =>
      setTimeout(() =>
        import('./full-link.js')
          .then(({ linkToFull }) => linkToFull(host, playground, page, options.lang))
          .catch((e) => console.warn(`ratelab: no link to the full playground: ${e}`)),
      ),
    );
    drawn = true;
    // The height goes to the parent from the ResizeObserver, after this frame's
    // own layout and before its paint, in the same frame: measuring here forced
    // that layout early, inside the mount's task (a CPU profile put 68 ms in
    // postHeight), for a message sent a few ms sooner.
  })
  .catch((e) => {
    host.textContent = `ratelab could not start: ${e}`;
    drawn = true;
    postHeight();
  });

let last = 0;
function postHeight() {
  // Not in a frame (embed.html opened by itself): nobody to tell, nothing to measure.
  if (window.parent === window || !drawn) return;
  const height = Math.ceil(document.body.getBoundingClientRect().height);
  if (height !== last) {
    last = height;
    window.parent.postMessage({ type: 'ratelab:height', height }, '*');
  }
}
new ResizeObserver(postHeight).observe(document.body);
window.addEventListener('message', (e) => {
  if (e.source === window.parent && e.data?.type === 'ratelab:height?') {
    last = 0;
    postHeight();
  }
});
window.addEventListener('load', postHeight);
