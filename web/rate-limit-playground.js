// <rate-limit-playground>: drop a playground into any page with one script.
//
//   <script type="module" src="/ratelab/rate-limit-playground.js"></script>
//   <rate-limit-playground scenario="edge-burst" limiters="fixed_window,sliding_log,token_bucket"
//                          limit="5" period="10s" compact></rate-limit-playground>
//
// Attributes are the playground's URL parameters (docs/playground.md), plus `compact` and
// `theme` (light, dark, auto). Each element lives in its own Shadow DOM with the
// stylesheet linked inside it; its styles do not leak out, and the stylesheet
// resets what the page would pass down (direction, text-transform, spacing...).
// Several elements on a page keep separate state. Keys work while an element has
// focus, and the ones it handles stop there; an element never writes the URL.
import { start } from './ratelab.js';

const STYLESHEET = new URL('./style.css', import.meta.url).href;

export class RateLimitPlayground extends HTMLElement {
  connectedCallback() {
    if (this._host) return;
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = STYLESHEET;
    const host = document.createElement('div');
    host.className = 'host';
    shadow.replaceChildren(link, host);
    this._host = host;
    const options = {};
    for (const attr of this.attributes) options[attr.name] = attr.value;
    start()
      .then(({ mount }) => {
        if (this._host === host) this._playground = mount(host, options);
      })
      .catch((e) => {
        host.textContent = `ratelab could not start: ${e}`;
      });
  }

  disconnectedCallback() {
    this._playground?.unmount();
    this._playground = undefined;
    this._host = undefined;
  }

  /** The element's current state as a query string (for embed.html?… or the page). */
  get query() {
    return this._playground?.query() ?? '';
  }
}

if (!customElements.get('rate-limit-playground')) {
  customElements.define('rate-limit-playground', RateLimitPlayground);
}
