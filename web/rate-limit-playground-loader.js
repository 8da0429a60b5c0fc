// For sites that only take classic scripts, such as mdBook's `additional-js`:
// loads the <rate-limit-playground> module. In mdBook (which defines
// `path_to_root` on every page, and serves additional-js from a hashed copy
// outside the book's src/ folders) the module is looked for in the book's
// `ratelab/` folder (dist/ copied to `src/ratelab/`), whatever the chapter's depth;
// elsewhere, next to this script. An external file, so a strict CSP allows it.
(() => {
  /* global path_to_root */
  const inBook = typeof path_to_root === 'string';
  const base = inBook ? new URL(`${path_to_root}ratelab/`, location.href) : document.currentScript?.src;
  if (!base) return;
  import(new URL('./rate-limit-playground.js', base).href).catch((e) => {
    console.error(`ratelab could not load: ${e}`);
  });
})();
