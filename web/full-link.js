// The ↗ link an embed (the element, the iframe) shows to the full playground.
// Fetched by them after their playground is mounted, so that it is no part of the
// first load: the page itself never needs it.

/** The ↗ link's words, by the playground's language. */
const FULL = {
  en: 'Open in the full playground (a new tab), at this moment',
  vi: 'Mở trong trang đầy đủ (thẻ mới), tại thời điểm này',
};

/**
 * For the element and the iframe: a ↗ link to the full playground at `page` (an
 * http(s) address or a path, without `?` or `#`), put at the end of `playground`'s
 * clock bar in `host`. Its address is the page with the playground's state at the
 * moment the reader goes for it (pointer, focus, click). Made here rather than in
 * the wasm, whose first module it would grow by more than this file. Returns
 * whether it was made: not for "", an address it refuses (a `javascript:` URL,
 * said on the console) or a playground without a clock bar (a service run).
 */
export function linkToFull(host, playground, page, lang) {
  if (!page) return false;
  const path = !/^[^/]*:/.test(page);
  if (!(path || /^https?:\/\//i.test(page)) || page.length > 2000 || /[\s"<>\\?#\x00-\x1f\x7f]/.test(page)) {
    console.warn(`ratelab: playground=${page.slice(0, 40)}: expected an http(s) address or a path, without ? or #; no link to the full playground`);
    return false;
  }
  const bar = host.querySelector('.controls');
  if (!bar) return false;
  const a = host.ownerDocument.createElement('a');
  a.className = 'open-full';
  a.target = '_blank';
  a.rel = 'noopener';
  a.textContent = '↗';
  a.title = FULL[lang] ?? FULL.en;
  a.setAttribute('aria-label', a.title);
  const aim = () => {
    const query = playground.query();
    a.href = query ? `${page}?${query}` : page;
  };
  for (const event of ['pointerdown', 'focus', 'click']) a.addEventListener(event, aim);
  aim();
  bar.append(a);
  return true;
}
