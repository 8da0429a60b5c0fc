// Trunk post_build hook (Trunk.toml): minifies wasm-bindgen's JS glue in the
// staging directory with terser. Trunk's own minifier gives up on the glue (it
// cannot parse `export default`) and leaves it whole: 50 KB, 9.4 KB gzipped,
// against 22 KB, 6.5 KB gzipped minified. Release builds only; export names,
// property names (the wasm imports) and the `@ts-self-types` comment that points
// TypeScript at ratelab-web.d.ts are kept. The loader, the worker and the element
// (ratelab.js, worker.js, rate-limit-playground.js: copied as they are written,
// comments and all; the element's file, in the first load, 5.9 KB, 2.4 KB gzipped)
// are minified the same way, without their comments (their export names kept).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { minify } from 'terser';

if (process.env.TRUNK_PROFILE === 'release') {
  for (const name of ['ratelab-web.js', '__wasm_split.js', 'ratelab.js', 'ratelab-files.js', 'worker.js', 'rate-limit-playground.js', 'full-link.js']) {
    const file = join(process.env.TRUNK_STAGING_DIR, name);
    const source = await readFile(file, 'utf8');
    const out = await minify(source, {
      module: true,
      ecma: 2020,
      compress: { passes: 2 },
      mangle: true,
      format: { comments: /@ts-self-types/ },
    });
    await writeFile(file, out.code);
  }
  // The stylesheet, in the first load, loses its comments, the whitespace CSS does
  // not need (runs of it become one space; none around { } ; and , nor after a
  // declaration's colon) and each block's last `;`, outside its strings, and
  // nothing else (34 KB, 8.6 KB gzipped, against 28 KB, 6.4 KB): Trunk's CSS
  // minifier is off for it (index.html: it broke `color-scheme: inherit`), and no
  // string in it holds a comment's opening or a quote.
  const css = join(process.env.TRUNK_STAGING_DIR, 'style.css');
  const sheet = await readFile(css, 'utf8');
  const stripped = sheet
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/("[^"]*")|\s+/g, (_, string) => string ?? ' ')
    .replace(/("[^"]*")|\s?([{};,])\s?/g, (_, string, mark) => string ?? mark)
    // In a declaration block (an innermost `{…}`, never a selector): `a: b;}` is `a:b}`.
    .replace(/\{[^{}]*\}/g, (block) =>
      block.replace(/("[^"]*")|(: )|;(?=\}$)/g, (_, string, colon) => string ?? (colon ? ':' : '')),
    )
    .trim();
  await writeFile(css, stripped);
  // index.html's link carries the file's integrity digest, which Trunk computed
  // before this hook: it is the stripped file's now.
  const page = join(process.env.TRUNK_STAGING_DIR, 'index.html');
  const html = await readFile(page, 'utf8');
  const digest = `sha384-${createHash('sha384').update(stripped).digest('base64')}`;
  let linked = 0;
  const updated = html.replace(/<link[^>]*style\.css[^>]*>/g, (tag) =>
    tag.replace(/integrity=("?)sha384-[A-Za-z0-9+/=]+\1/, (_, q) => {
      linked += 1;
      return `integrity=${q}${digest}${q}`;
    }),
  );
  if (linked !== 1) throw new Error(`minify.mjs: expected one style.css link with an integrity digest in index.html, found ${linked}`);
  await writeFile(page, updated);
}
