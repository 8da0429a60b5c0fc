// End-to-end: "Which limiter?" on the page (crates/web/src/view/learn/chooser.rs,
// issue 28). Every way through the flowchart, in English and Vietnamese, clicked as
// a learner would: each question and answer is the one `ratelab choose --json`
// prints, each way ends on the pick the command line picks (title, parameters,
// why), and its button opens that pick's lesson step, which exists. The chooser's
// chunk is fetched the first time its fold opens, once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open, useDist } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = process.env.RATELAB_CLI ?? join(here, '..', '..', 'target', 'debug', 'ratelab');
const site = useDist();

/** The whole chooser as the command line gives it. */
const chooser = (lang) => JSON.parse(execFileSync(cli, ['choose', '--json', '--lang', lang], { encoding: 'utf8' }));

/** Every way through the flowchart: the answers' indices, and the pick. */
function ways(data) {
  const out = [];
  const from = (id, before) => {
    const q = data.questions.find((x) => x.id === id);
    q.answers.forEach((a, i) => {
      if (a.pick) out.push({ answers: [...before, i], pick: a.pick });
      else from(a.ask, [...before, i]);
    });
  };
  from(data.start, []);
  return out;
}

for (const lang of ['en', 'vi']) {
  test(`every way through "Which limiter?" ends on the command line's pick and opens its lesson step (${lang})`, async (t) => {
    const data = chooser(lang);
    const all = ways(data);
    assert.ok(all.length >= 5, `${all.length} ways`);
    const page = await open(t, site.browser, `${site.base}?scenario=golden&lang=${lang}`);
    await page.locator('article.lane').first().waitFor();
    const fold = page.locator('details.chooser-fold');
    await fold.locator('summary').waitFor();
    assert.equal(await fold.locator('summary').textContent(), data.title);
    await fold.locator('summary').click();
    const box = fold.locator('.chooser');
    for (const way of all) {
      // Start over (after the first way), then answer as this way does.
      if (await box.locator('button.again').count()) await box.locator('button.again').click();
      let id = data.start;
      for (const i of way.answers) {
        const q = data.questions.find((x) => x.id === id);
        const asking = box.locator(`fieldset.asking[data-question="${id}"]`);
        assert.equal(await asking.locator('legend').textContent(), q.question);
        assert.deepEqual(await asking.locator('button.answer').allTextContents(), q.answers.map((a) => a.text));
        await asking.locator('button.answer').nth(i).click();
        id = q.answers[i].ask;
      }
      const pick = data.picks.find((p) => p.id === way.pick);
      const shown = box.locator(`.pick[data-pick="${pick.id}"]`);
      await shown.waitFor();
      assert.equal(await shown.locator('.pick-title').textContent(), pick.title);
      assert.equal(await shown.locator('.pick-params strong').textContent(), pick.params);
      assert.equal(await shown.locator('.pick-why').textContent(), pick.why);
      // Its lesson step: the button names it, and the page opens it.
      const button = shown.locator('button.show');
      assert.equal(await button.getAttribute('data-lesson'), pick.lesson);
      assert.equal(Number(await button.getAttribute('data-step')), pick.step - 1);
      assert.equal(await box.locator('button.show:focus').count(), 1, 'focus moves to the pick');
      await button.click();
      await page.locator(`article.lesson[data-lesson="${pick.lesson}"][data-step="${pick.step - 1}"] .proved`).waitFor();
      await page.waitForFunction(
        ([lesson, step]) => {
          const q = new URL(location.href).searchParams;
          // The first step's link names no step.
          return q.get('lesson') === lesson && q.get('step') === (step === 1 ? null : String(step));
        },
        [pick.lesson, pick.step],
      );
    }
    // "Change" goes back to a question answered.
    await box.locator('button.again').click();
    await box.locator('fieldset.asking button.answer').nth(1).click();
    await box.locator('ol.answered button.change').first().click();
    assert.equal(await box.locator(`fieldset.asking[data-question="${data.start}"]`).count(), 1);
    assert.equal(await box.locator('ol.answered li').count(), 0);
    const fetched = await page.evaluate(
      () => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/split_chooser.wasm')).length,
    );
    assert.equal(fetched, 1);
  });
}

test('the decision matrix: a row per property, a column per limiter, each column opening its lesson step', async (t) => {
  const page = await open(t, site.browser, `${site.base}?scenario=golden`);
  await page.locator('article.lane').first().waitFor();
  await page.locator('details.chooser-fold > summary').click();
  const matrix = page.locator('.chooser details.matrix');
  await matrix.locator('summary').click();
  assert.equal(await matrix.locator('tbody tr').count(), 5);
  assert.equal(await matrix.locator('thead th button').count(), 5);
  // No cell is a missing text (a key shown instead of its words).
  for (const cell of await matrix.locator('td, th').allTextContents()) assert.ok(!cell.startsWith('choose.'), cell);
  const go = await matrix.locator('thead th button').first().getAttribute('data-go');
  await matrix.locator('thead th button').first().click();
  const [lesson, step] = go.split('.');
  await page.locator(`article.lesson[data-lesson="${lesson}"][data-step="${step}"]`).waitFor();
});
