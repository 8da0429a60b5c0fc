// Sizes every ratelab iframe on a page to its content. An external script (no
// inline code), so it works under a strict Content-Security-Policy:
//
//   <script src="/ratelab/embed-resize.js"></script>  <!-- in <head>, no defer -->
//   <iframe src="/ratelab/embed.html?scenario=lab-c&compact=1" title="ratelab"></iframe>
//
// embed.html posts {type: 'ratelab:height', height} to its parent as soon as the
// playground is drawn and whenever its height changes. A message counts only if it
// comes from one of this page's iframes (its `source` is that iframe's window),
// and it resizes that iframe alone, so any number of them work. Until the first
// message an iframe keeps a sensible height (data-height, else 560 px) instead of
// the browser's 150 px, so the page does not jump from 150 px to the full height.
// Styles are set through the CSSOM, which style-src 'self' allows. Loaded in <head>
// without `defer`, it sizes each iframe as the parser inserts it (the
// MutationObserver below), before the page's first paint.
const SELECTOR = 'iframe[src*="embed.html"], iframe[data-ratelab]';
const INITIAL = 560;
const MIN = 120;
const MAX = 20000;

function prepare(frame) {
  if (frame.dataset.ratelabSized) return;
  frame.dataset.ratelabSized = 'waiting';
  // A frame that loaded before this script listened has posted its height into
  // the void (and posts again only when it changes): ask. One still loading
  // ignores this and posts once it has drawn.
  frame.contentWindow?.postMessage({ type: 'ratelab:height?' }, '*');
  const initial = Number(frame.dataset.height);
  frame.style.height = `${Number.isFinite(initial) && initial > 0 ? initial : INITIAL}px`;
  if (!frame.style.width) frame.style.width = '100%';
  frame.style.border = frame.style.border || '0';
}

function prepareAll() {
  document.querySelectorAll(SELECTOR).forEach(prepare);
}

window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'ratelab:height') return;
  const height = Number(data.height);
  if (!Number.isFinite(height)) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow !== event.source) continue;
    prepare(frame);
    frame.style.height = `${Math.min(MAX, Math.max(MIN, Math.ceil(height)))}px`;
    frame.dataset.ratelabSized = 'sized';
    return;
  }
});

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', prepareAll);
} else {
  prepareAll();
}
// Iframes added later (a docs site that renders pages on the client).
new MutationObserver(prepareAll).observe(document.documentElement, { childList: true, subtree: true });
