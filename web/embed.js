// embed.html?scenario=…&limiters=…: the playground for an <iframe>. Takes the same
// parameters as the page's URL (plus compact=1), never writes the URL, and tells
// its parent how tall it is: postMessage({type: 'ratelab:height', height}), which
// embed-resize.js on the parent page turns into the iframe's height; sent when it
// changes and whenever the parent asks ({type: 'ratelab:height?'}: a parent whose
// script started after the frame had posted missed that message).
import { load } from './ratelab.js';

const host = document.getElementById('embed');
const options = Object.fromEntries(new URLSearchParams(location.search));

load()
  .then(({ mount }) => {
    host.textContent = '';
    window.ratelabPlayground = mount(host, options);
    // At once, so the parent's embed-resize.js sizes the frame before it paints
    // the playground at the placeholder height.
    postHeight();
  })
  .catch((e) => {
    host.textContent = `ratelab could not start: ${e}`;
  });

let last = 0;
function postHeight() {
  const height = Math.ceil(document.body.getBoundingClientRect().height);
  if (height !== last && window.parent !== window) {
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
