// A real docs site: a small mdBook (the `mdbook` binary, installed by `cargo xtask
// setup` at a pinned version) embeds the element as docs/embedding.md says (dist/ in
// src/ratelab/, the loader in book.toml's additional-js) in a top-level and a
// nested chapter, built once in mdBook's light theme and once in its dark "navy"
// theme. In headless Chromium: nothing overflows mdBook's content column (about
// 700 px wide), the playground plays, → inside it moves the playground and not the
// book, and the element's theme follows the book's. A third chapter holds the
// compact element as the README shows it (three lanes) and one with six lanes:
// their heights in the book's column and on a phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifacts, dist, launch, open, serve } from './helpers.mjs';

const MDBOOK = process.env.RATELAB_MDBOOK ?? 'mdbook';

let dir;
let browser;
const books = {};

const CHAPTER = (title) => `# ${title}

Half of a burst just before the 10 s boundary, half just after.

<rate-limit-playground id="lab" scenario="edge-burst" limiters="fixed_window,sliding_log,token_bucket" limit="5" period="10s"></rate-limit-playground>

Text after the playground.
`;

const COMPACT = `# Compact

<rate-limit-playground id="three" scenario="edge-burst" limiters="fixed_window,sliding_log,token_bucket" limit="5" period="10s" compact></rate-limit-playground>

Six lanes:

<rate-limit-playground id="six" scenario="edge-burst" limiters="fixed_window,sliding_log,token_bucket,gcra,leaky_queue,nginx" limit="5" period="10s" compact></rate-limit-playground>
`;

async function book(name, theme) {
  const root = join(dir, name);
  await mkdir(join(root, 'src', 'part'), { recursive: true });
  await cp(dist, join(root, 'src', 'ratelab'), { recursive: true });
  await writeFile(
    join(root, 'book.toml'),
    `[book]
title = "ratelab in a book"

[output.html]
default-theme = "${theme}"
preferred-dark-theme = "${theme}"
additional-js = ["src/ratelab/rate-limit-playground-loader.js"]
`,
  );
  await writeFile(
    join(root, 'src', 'SUMMARY.md'),
    `# Summary

- [Top](top.md)
  - [Nested](part/nested.md)
- [Last](last.md)
- [Compact](compact.md)
`,
  );
  await writeFile(join(root, 'src', 'top.md'), CHAPTER('Top'));
  await writeFile(join(root, 'src', 'part', 'nested.md'), CHAPTER('Nested'));
  await writeFile(join(root, 'src', 'last.md'), '# Last\n\nThe end.\n');
  await writeFile(join(root, 'src', 'compact.md'), COMPACT);
  const built = spawnSync(MDBOOK, ['build', root], { encoding: 'utf8' });
  assert.equal(built.status, 0, `mdbook build failed: ${built.error ?? ''}${built.stderr}`);
  const server = await serve(join(root, 'book'));
  return { server, base: `http://127.0.0.1:${server.address().port}/` };
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratelab-mdbook-'));
  books.light = await book('light', 'light');
  books.dark = await book('dark', 'navy');
  browser = await launch();
});

after(async () => {
  await browser?.close();
  for (const b of Object.values(books)) await new Promise((ok) => b.server.close(ok));
  if (dir) await rm(dir, { recursive: true, force: true });
});

for (const [theme, paper] of [
  ['light', 'rgb(251, 250, 247)'],
  ['dark', 'rgb(20, 23, 29)'],
]) {
  for (const chapter of ['top.html', 'part/nested.html']) {
    test(`mdBook, ${theme} theme, ${chapter}`, async (t) => {
      const page = await open(t, browser, `${books[theme].base}${chapter}`, { width: 1280 });
      const lab = page.locator('#lab');
      await lab.locator('article.lane').first().waitFor();
      const width = await lab.evaluate((e) => e.getBoundingClientRect().width);
      assert.ok(width > 600 && width < 800, `the column is ${width} px`);
      const outside = await lab.evaluate((host) => {
        const box = host.getBoundingClientRect();
        return [...host.shadowRoot.querySelectorAll('*')]
          .filter((el) => !(el.closest('.scroll') && !el.classList.contains('scroll')))
          // The veil over the future is clipped by its clock box (overflow: hidden).
          .filter((el) => !el.classList.contains('veil'))
          .map((el) => [el, el.getBoundingClientRect()])
          .filter(([, r]) => (r.width || r.height) && (r.right > box.right + 1 || r.left < box.left - 1))
          .map(([el, r]) => `${el.tagName} ${r.left}..${r.right}`);
      });
      assert.deepEqual(outside, []);
      // Labels keep their size under mdBook's 62.5% root font.
      const label = await lab.locator('.field .label').first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
      assert.ok(label >= 12, `${label}px`);
      // The theme follows the book's.
      assert.equal(await lab.locator('.ratelab').evaluate((e) => getComputedStyle(e).backgroundColor), paper);

      await mkdir(artifacts, { recursive: true });
      const name = `mdbook-${theme}-${chapter.replace(/\W+/g, '-')}`;
      await page.screenshot({ path: join(artifacts, `${name}-1280.png`) });
      await page.setViewportSize({ width: 700, height: 900 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, `${name}-700.png`), fullPage: false });
      await page.setViewportSize({ width: 1280, height: 900 });

      // → inside the playground steps it and does not turn the page.
      const url = page.url();
      await lab.locator('.ratelab').focus();
      await page.keyboard.press('ArrowRight');
      await lab.locator('output.now', { hasText: /^[1-9]/ }).waitFor();
      await page.waitForTimeout(300);
      assert.equal(page.url(), url);
      // It plays.
      await lab.locator('button.play').click();
      const before = await lab.locator('output.now').textContent();
      await page.waitForFunction(
        (b) => document.querySelector('#lab').shadowRoot.querySelector('output.now').textContent !== b,
        before,
      );
      await lab.locator('button.play').click();

    });
  }

  test(`mdBook, ${theme} theme: the compact element's height in the column and on a phone`, async (t) => {
    const page = await open(t, browser, `${books[theme].base}compact.html`, { width: 1280, height: 1400 });
    for (const id of ['three', 'six']) await page.locator(`#${id} article.lane .mark`).first().waitFor();
    const measure = () =>
      page.evaluate(() =>
        Object.fromEntries(
          ['three', 'six'].map((id) => {
            const r = document.getElementById(id).getBoundingClientRect();
            return [id, [Math.round(r.width), Math.round(r.height)]];
          }),
        ),
      );
    const settled = () => page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
    const column = await measure();
    // On a phone mdBook opens with its sidebar hidden (it keeps it open when a
    // wide window narrows): the chapter again, at 390 px.
    await page.setViewportSize({ width: 390, height: 1400 });
    await page.reload();
    for (const id of ['three', 'six']) await page.locator(`#${id} article.lane .mark`).first().waitFor();
    await settled();
    const phone = await measure();
    console.log(`mdBook ${theme}: compact [width, height] in the column ${JSON.stringify(column)}, on a 390 px phone ${JSON.stringify(phone)}`);
    await mkdir(artifacts, { recursive: true });
    await page.locator('#three').screenshot({ path: join(artifacts, `mdbook-${theme}-compact-390.png`) });
    // In the book's column (at least 700 px), as in compact.test.mjs: three lanes
    // in 560 px, six in 1 080.
    assert.ok(column.three[0] >= 700, `the column is ${column.three[0]} px`);
    assert.ok(column.three[1] <= 560, `three lanes: ${column.three[1]} px`);
    assert.ok(column.six[1] <= 1080, `six lanes: ${column.six[1]} px`);
    // On a phone the book's column is narrower than the screen (its margins), and
    // a lane's head takes two lines: about one phone screen for three lanes.
    assert.ok(phone.three[0] > 300 && phone.three[0] < 390, `the phone's column is ${phone.three[0]} px`);
    assert.ok(phone.three[1] <= 720, `three lanes on a phone: ${phone.three[1]} px`);
    assert.ok(phone.six[1] <= 1400, `six lanes on a phone: ${phone.six[1]} px`);
    // The theme follows the book's.
    assert.equal(await page.locator('#three .ratelab').evaluate((e) => getComputedStyle(e).backgroundColor), paper);
  });
}
