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
import { minify } from 'terser';

if (process.env.TRUNK_PROFILE === 'release') {
  for (const name of ['ratelab-web.js', '__wasm_split.js', 'ratelab.js', 'worker.js', 'rate-limit-playground.js']) {
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
}
