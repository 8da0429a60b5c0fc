// For sites that only take classic scripts, such as mdBook's `additional-js`
// (which mdBook links from every chapter with the right relative path, however
// deep the chapter): loads the <rate-limit-playground> module from the folder this
// script was served from. An external file, so a strict CSP allows it.
(() => {
  const here = document.currentScript?.src;
  if (!here) return;
  import(new URL('./rate-limit-playground.js', here).href).catch((e) => {
    console.error(`ratelab could not load: ${e}`);
  });
})();
