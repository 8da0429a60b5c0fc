// End-to-end: the learner's path. Every step of every lesson, walked with "Next →"
// from the first, in English and Vietnamese; each shows the same title, texts and
// numbers as `ratelab lessons --json` (the command line runs the same engine on the
// same setups), and the page's link names the step's setup, moment and lesson.
// Run by `cargo xtask test` (step e2e), which builds the command line and sets
// RATELAB_CLI to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open, useDist } from './helpers.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = process.env.RATELAB_CLI ?? join(here, '..', '..', 'target', 'debug', 'ratelab');

/** `ratelab lessons --json --lang LANG`: every lesson's steps and numbers. */
function lessons(lang) {
  const out = execFileSync(cli, ['lessons', '--json', '--lang', lang], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return JSON.parse(out);
}

const site = useDist();

/** What the open step shows: its texts and each marked number. */
function shown(page) {
  return page.locator('article.lesson').evaluate((a) => ({
    lesson: a.dataset.lesson,
    step: Number(a.dataset.step),
    title: a.querySelector('h3')?.textContent,
    watch: a.querySelector('.watch')?.textContent,
    proved: a.querySelector('.proved')?.textContent,
    facts: [...a.querySelectorAll('.proved strong.fact, .watch strong.fact')].map((f) => [
      f.dataset.fact,
      f.textContent,
    ]),
  }));
}

/** The yardstick table's cell for `column` of lane `lane`, as a number (`arrived`: passed + blocked). */
function cells(page, wanted) {
  return page.locator('section.yardstick').evaluate((table, wanted) => {
    const cell = (lane, sel) => {
      const el = table.querySelector(`tr[data-lane="${lane}"] ${sel}`);
      if (!el) return null;
      // "(5 by departure)": the number is in the text.
      if (el.dataset.value === undefined) return Number(el.textContent.match(/\d+/)?.[0]);
      return Number(el.dataset.value);
    };
    const of = {
      passed: 'td.passed',
      blocked: 'td.blocked',
      'max-window': 'td.max-window',
      departures: 'td.max-window .departures',
      'max-1s': 'td.max-1s',
      'longest-wait': 'td.longest-wait',
    };
    return wanted.map(({ lane, column }) =>
      column === 'arrived'
        ? cell(lane, of.passed) + cell(lane, of.blocked)
        : cell(lane, of[column]),
    );
  }, wanted);
}

/**
 * Each number the step states that the yardstick table ("so far", under the lanes)
 * also shows is the table's, with the clock stopped at the step's moment: a count
 * as the page writes it, a wait by the value the command line gives for it.
 */
async function checkYardstick(page, step, facts, where) {
  if (step.yardstick.length === 0) return;
  await page.locator('section.yardstick[aria-busy="false"]').waitFor();
  const want = step.yardstick.map((c) => c.value);
  // The table follows the clock a task or two after it stops.
  await page
    .waitForFunction(
      ([wanted, want]) => {
        const table = document.querySelector('section.yardstick');
        return wanted.every(({ lane, column }, i) => {
          const row = table?.querySelector(`tr[data-lane="${lane}"]`);
          if (!row) return false;
          if (column === 'arrived') {
            const n = (c) => Number(row.querySelector(`td.${c}`)?.dataset.value);
            return n('passed') + n('blocked') === want[i];
          }
          if (column === 'departures') {
            const text = row.querySelector('td.max-window .departures')?.textContent ?? '';
            return Number(text.match(/\d+/)?.[0]) === want[i];
          }
          return Number(row.querySelector(`td.${column}`)?.dataset.value) === want[i];
        });
      },
      [step.yardstick, want],
      { timeout: 5_000 },
    )
    .catch(() => {});
  const have = await cells(page, step.yardstick);
  for (const [i, c] of step.yardstick.entries()) {
    const says = facts.get(c.fact);
    assert.equal(have[i], c.value, `${where}: {${c.fact}} says ${says}, the yardstick's ${c.column} of lane ${c.lane} shows ${have[i]}`);
    if (c.column !== 'longest-wait') {
      // A count: the digits on the page are the cell's.
      assert.equal(Number(says.replace(/\D/g, '')), have[i], `${where}: {${c.fact}} ${says}`);
    }
  }
}

async function walk(t, lang) {
  const expected = lessons(lang);
  assert.ok(expected.length >= 16, `${expected.length} lessons`);
  const first = expected[0].id;
  const page = await open(t, site.browser, `${site.base}?lesson=${first}&lang=${lang}`, {
    reducedMotion: 'reduce',
  });
  let n = 0;
  for (const [li, lesson] of expected.entries()) {
    for (const [si, step] of lesson.steps.entries()) {
      if (n > 0) await page.locator('article.lesson nav button.next').click();
      n += 1;
      const here = page.locator(`article.lesson[data-lesson="${lesson.id}"][data-step="${si}"]`);
      // Lab D's step runs the judged sweep: a few seconds in wasm.
      await here.locator('.proved').waitFor({ timeout: 120_000 });
      const s = await shown(page);
      const where = `${lang} ${lesson.id} step ${si}`;
      assert.equal(s.title, step.title, where);
      assert.equal(s.watch, step.watch, where);
      assert.equal(s.proved, step.proved, where);
      assert.ok(s.facts.length > 0, `${where}: no marked numbers`);
      const facts = new Map(step.facts);
      for (const [name, value] of s.facts) {
        assert.equal(value, facts.get(name), `${where}: {${name}}`);
      }
      // The clock stops at the step's moment, which is inside the run (the sim
      // crate's tests check every step's against the run's end); the link then
      // names the step's setup, the moment and the lesson.
      await page.locator('button.play[aria-pressed="false"]').waitFor();
      const clock = page.locator('input[name="clock"]');
      const end = Number(await clock.evaluate((c) => c.max));
      assert.ok(step.play_to_ms <= end, `${where}: moment ${step.play_to_ms} past the end ${end}`);
      assert.equal(Number(await clock.inputValue()), step.play_to_ms, where);
      await checkYardstick(page, step, new Map(s.facts), where);
      const want = new URLSearchParams(step.query);
      await page.waitForFunction(
        ([q, lesson, stepNo]) => {
          const have = new URLSearchParams(location.search);
          for (const [k, v] of new URLSearchParams(q)) if (have.get(k) !== v) return false;
          return have.get('lesson') === lesson && (have.get('step') ?? '1') === String(stepNo);
        },
        [want.toString(), lesson.id, si + 1],
      );
      assert.ok(want.get('scenario'), where);
      if (li === expected.length - 1 && si === lesson.steps.length - 1) {
        assert.equal(await page.locator('article.lesson nav button.next').isDisabled(), true);
      }
    }
  }
  // "← Previous" walks back into the previous lesson's last step.
  await page.locator('article.lesson nav button.prev').click();
  const last = expected.at(-2);
  await page
    .locator(`article.lesson[data-lesson="${last.id}"][data-step="${last.steps.length - 1}"]`)
    .waitFor();
}

test('every lesson shows the command line\'s numbers (English)', async (t) => {
  await walk(t, 'en');
});

test('every lesson shows the command line\'s numbers (Vietnamese)', async (t) => {
  await walk(t, 'vi');
});

test('a link opens a lesson step; a hostile lesson= is a one-line notice', async (t) => {
  const page = await open(t, site.browser, `${site.base}?lesson=golden&step=4`);
  await page.locator('article.lesson[data-lesson="golden"][data-step="3"] .proved').waitFor();
  assert.equal(await page.locator('.notices').count(), 0);
  const bad = await open(
    t,
    site.browser,
    `${site.base}?lesson=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&step=%0A2&limit=3`,
  );
  const notice = bad.locator('.notices li');
  await notice.first().waitFor();
  const texts = await notice.allTextContents();
  assert.equal(texts.length, 2, JSON.stringify(texts));
  assert.match(texts[0], /^lesson=<img src=x onerror=alert\(1\)>: unknown lesson \(expected one of edge, /);
  assert.match(texts[1], /^step=\\n2: only with a lesson; ignored$/);
  assert.equal(await bad.locator('img').count(), 0);
  assert.equal(await bad.locator('article.lesson').count(), 0);
  // The rest of the link still opens; the catalog is there to choose from.
  await bad.waitForFunction(() => new URLSearchParams(location.search).get('limit') === '3');
  await bad.locator('.catalog button[data-lesson="edge"]').waitFor();
  await bad.locator('.catalog button[data-lesson="edge"]').click();
  await bad.locator('article.lesson[data-lesson="edge"] .proved strong.fact').first().waitFor();
});

test('a bad link on the Vietnamese page: its notices are Vietnamese, and so is the GCRA legend', async (t) => {
  const page = await open(
    t,
    site.browser,
    `${site.base}?lang=vi&scenario=nope&limiters=gcra,nope&limit=0&burst.0=x&step=2&lesson=nope`,
  );
  const notice = page.locator('.notices li');
  await notice.first().waitFor();
  const texts = await notice.allTextContents();
  assert.equal(texts.length, 6, texts.join('\n'));
  // English words the link reader's reasons use; the ids in the lists are the
  // link's own words and may stay.
  const english = /\b(unknown|expected|showing|left out|ignored|must|using the default|only with)\b/;
  for (const line of texts) {
    const reason = line.slice(line.indexOf(': ') + 2);
    assert.doesNotMatch(reason, english, line);
  }
  assert.ok(texts.some((l) => l.startsWith('scenario=nope: không có kịch bản này')), texts.join('\n'));
  assert.ok(texts.some((l) => l.startsWith('limiters=gcra,nope: không có bộ giới hạn nope')), texts.join('\n'));
  const legend = await page.locator('ul.legend li.has-gcra').nth(1).textContent();
  assert.match(legend, /bây giờ \+ τ/);
  assert.doesNotMatch(legend, /now/);
});
