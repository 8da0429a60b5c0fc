// <rate-limit-playground>: drop a playground into any page with one script.
//
//   <script type="module" src="/ratelab/rate-limit-playground.js"></script>
//   <rate-limit-playground scenario="edge-burst" limiters="fixed_window,sliding_log,token_bucket"
//                          limit="5" period="10s" compact></rate-limit-playground>
//
// Attributes are the playground's URL parameters (docs/playground.md), plus `compact`,
// `theme` (light, dark, auto), `at` (the moment it opens at), `autoplay` and
// `playground` (the full page its ↗ link opens; by default index.html beside this
// script, "" for no link). Each
// element lives in its own Shadow DOM with the stylesheet linked inside it; its
// styles do not leak out, and the stylesheet resets what the page would pass down
// (direction, text-transform, spacing...). Several elements on a page keep separate
// state. Keys work while an element has focus, and the ones it handles stop there;
// an element never writes the URL.
//
// Mounted when seen: an element shows its static frame (a title and one placeholder
// lane per limiter, drawn by style.css alone) until it comes within about one screen
// of the viewport (an IntersectionObserver); only then is the wasm fetched (once per
// page) and the playground mounted. Elements that are never scrolled to never mount;
// where IntersectionObserver does not exist, every element mounts at once. Mounts are
// queued and run one per task, so twenty elements coming into view together never
// make one long task.
import { start } from './ratelab.js';

const STYLESHEET = new URL('./style.css', import.meta.url).href;
/** The full playground beside this script: the element links to it (`playground` sets another, "" none). */
const PAGE = new URL('./index.html', import.meta.url).href;
/** How far outside the viewport an element starts mounting: about one screen. */
const NEAR = '100% 0px 100% 0px';
/** At most this many placeholder lanes (a playground has 1 to 6 lanes). */
const MAX_LANES = 6;

/** Elements waiting to mount, in the order they came near the viewport. */
const waiting = [];
let draining = false;
let observer;

/** A new task: lets the page draw and answer input between two mounts. */
function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function drain() {
  draining = true;
  try {
    let api;
    try {
      api = await start();
    } catch (e) {
      for (const element of waiting.splice(0)) element._failed(e);
      return;
    }
    while (waiting.length > 0) {
      waiting.shift()._mount(api.mount);
      if (waiting.length > 0) await nextTask();
    }
  } finally {
    draining = false;
  }
}

function enqueue(element) {
  if (!waiting.includes(element)) waiting.push(element);
  if (!draining) drain();
}

function near(entries) {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    observer.unobserve(entry.target);
    enqueue(entry.target);
  }
}

/** Mounts `element` once it comes near the viewport (at once where nothing can tell). */
function whenSeen(element) {
  if (typeof IntersectionObserver !== 'function') {
    enqueue(element);
    return;
  }
  observer ??= new IntersectionObserver(near, { rootMargin: NEAR });
  observer.observe(element);
}

/** `data-theme` for the frame, as the playground will set it (crates/web/src/view/mod.rs). */
function themeOf(element) {
  const theme = element.getAttribute('theme');
  if (theme === 'light' || theme === 'dark') return theme;
  const scheme = getComputedStyle(element).colorScheme;
  return scheme && scheme !== 'normal' ? 'auto' : 'os';
}

/** The static frame shown until the playground mounts: a title and placeholder lanes. */
function frame(element) {
  const box = document.createElement('div');
  box.className = element.hasAttribute('compact') ? 'ratelab embed compact booting' : 'ratelab embed booting';
  box.dataset.theme = themeOf(element);
  box.setAttribute('aria-busy', 'true');
  const title = document.createElement('h3');
  const scenario = (element.getAttribute('scenario') ?? '').slice(0, 40);
  title.textContent = scenario ? `ratelab · ${scenario}` : 'ratelab';
  box.append(title);
  const limiters = (element.getAttribute('limiters') ?? '').split(',').filter((s) => s.trim()).length;
  for (let i = 0; i < Math.min(MAX_LANES, Math.max(1, limiters)); i++) {
    const lane = document.createElement('div');
    lane.className = 'lane-placeholder';
    lane.setAttribute('aria-hidden', 'true');
    box.append(lane);
  }
  return box;
}

export class RateLimitPlayground extends HTMLElement {
  connectedCallback() {
    if (this._host) return;
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = STYLESHEET;
    const host = document.createElement('div');
    host.className = 'host';
    host.append(frame(this));
    shadow.replaceChildren(link, host);
    this._host = host;
    whenSeen(this);
  }

  /** Called by the queue, in a task of its own. */
  _mount(mount) {
    const host = this._host;
    if (!host || !this.isConnected) return;
    const options = {};
    for (const attr of this.attributes) options[attr.name] = attr.value;
    host.replaceChildren();
    try {
      const playground = mount(host, options);
      this._playground = playground;
      // The ↗ link, from its own small file, once the first lanes are drawn.
      requestAnimationFrame(() =>
        setTimeout(() =>
          import('./full-link.js')
            .then(({ linkToFull }) => linkToFull(host, playground, options.playground ?? PAGE, options.lang))
            .catch((e) => console.warn(`ratelab: no link to the full playground: ${e}`)),
        ),
      );
    } catch (e) {
      host.textContent = `ratelab could not start: ${e}`;
    }
  }

  _failed(e) {
    if (this._host) this._host.textContent = `ratelab could not start: ${e}`;
  }

  disconnectedCallback() {
    observer?.unobserve(this);
    const queued = waiting.indexOf(this);
    if (queued >= 0) waiting.splice(queued, 1);
    this._playground?.unmount();
    this._playground = undefined;
    this._host = undefined;
  }

  /** Whether the playground is mounted (false while the element shows its frame). */
  get mounted() {
    return this._playground !== undefined;
  }

  /** The element's current state as a query string (for embed.html?… or the page). */
  get query() {
    return this._playground?.query() ?? '';
  }
}

if (!customElements.get('rate-limit-playground')) {
  customElements.define('rate-limit-playground', RateLimitPlayground);
}
