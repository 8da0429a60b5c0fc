// End-to-end: the quiz on the page (crates/web/src/view/learn/quiz.rs, issue 28).
// Every question and every choice, in English and Vietnamese, answered as a
// learner would (pick, then commit with the button): each question and choice is
// the one `ratelab quiz --json` prints, the right choice is marked right and every
// wrong one wrong with its own explanation, the engine's answer is the command
// line's, numbers and all; each "show it running" button sets up that run on the
// lanes, whose yardstick shows the answer's numbers. The keyboard reaches it all.
// The quiz's chunk is not fetched before its fold is opened, then once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open, useDist } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = process.env.RATELAB_CLI ?? join(here, '..', '..', 'target', 'debug', 'ratelab');
const site = useDist();

/** The quiz as the command line answers it. */
const quiz = (lang) => JSON.parse(execFileSync(cli, ['quiz', '--json', '--lang', lang], { encoding: 'utf8' }));

/** The fold's title, the first module's only words of the quiz. */
const TITLE = { en: 'Check yourself: the quiz', vi: 'Tự kiểm tra: câu đố' };

/** How many times the page fetched the quiz's chunk. */
const fetches = (page) =>
  page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/split_quiz.wasm')).length);

/** A fact of question `q` by name, as a number. */
const fact = (q, name) => Number(q.facts.find(([n]) => n === name)[1]);

/** The yardstick's cells of `column` (one per lane), once it is drawn. */
async function column(page, column) {
  await page.locator('section.yardstick[aria-busy="false"]').waitFor();
  return page.locator(`section.yardstick td.${column}`).evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));
}

for (const lang of ['en', 'vi']) {
  test(`every choice of every question, checked against ratelab quiz --json (${lang})`, async (t) => {
    const data = quiz(lang);
    assert.equal(data.length, 4);
    const page = await open(t, site.browser, `${site.base}?scenario=golden&lang=${lang}`);
    await page.locator('article.lane').first().waitFor();
    const fold = page.locator('details.quiz-fold');
    assert.equal(await fold.locator('summary').textContent(), TITLE[lang]);
    // The lessons are in (the page has fetched what it fetches on its own): no quiz yet.
    await page.locator('.lessons .catalog, .lessons article').first().waitFor();
    assert.equal(await fetches(page), 0, 'the quiz chunk is not fetched before its fold is opened');
    await fold.locator('summary').click();
    const box = fold.locator('.quiz');
    await box.locator('li.question').first().waitFor();
    assert.equal(await box.locator('li.question').count(), data.length);
    // Nothing answered: no answer or explanation shown, one button per question.
    assert.equal(await box.locator('.result').count(), 0);
    assert.equal(await box.locator('button.check').count(), data.length);
    // The button with nothing picked says to pick first, and reveals nothing.
    const first = box.locator(`li.question[data-question="${data[0].id}"]`);
    await first.locator('button.check').click();
    await first.locator('.unpicked[role="alert"]').waitFor();
    assert.equal(await first.locator('.result').count(), 0);
    for (const q of data) {
      const li = box.locator(`li.question[data-question="${q.id}"]`);
      assert.equal(await li.locator('legend').textContent(), q.question);
      assert.deepEqual(await li.locator('label.choice > span:not(.mark)').allTextContents(), q.choices);
      assert.equal(q.why_not.length, q.choices.length);
      for (const [c, choice] of q.choices.entries()) {
        if (await li.locator('button.again').count()) await li.locator('button.again').click();
        await li.locator(`input[type="radio"][value="${c}"]`).check();
        await li.locator('button.check').click();
        const result = li.locator('.result');
        await result.waitFor();
        const isRight = c === q.correct;
        assert.equal(await li.getAttribute('data-result'), isRight ? 'right' : 'wrong', `${q.id} ${choice}`);
        // Focus moves to the verdict (read first by a screen reader), once the
        // result is drawn.
        await li.locator('.verdict:focus').waitFor();
        // The choices are fixed now: the right one marked, the chosen one too.
        assert.equal(await li.locator('input:disabled').count(), q.choices.length);
        assert.equal(await li.locator('label[data-right] > span:not(.mark)').textContent(), q.choices[q.correct]);
        assert.equal(await li.locator('label[data-chosen] > span:not(.mark)').textContent(), choice);
        // The engine's answer, the command line's word for word (its numbers too).
        assert.equal(await result.locator('.answer > span').textContent(), q.answer);
        if (isRight) {
          assert.equal(q.why_not[c], null);
          assert.equal(await result.locator('.why-not').count(), 0);
          assert.equal(await result.locator('.verdict .right').count(), 0);
        } else {
          assert.equal(await result.locator('.verdict .right').textContent(), q.choices[q.correct]);
          assert.ok(q.why_not[c], `${q.id}: choice ${c} has an explanation`);
          assert.equal(await result.locator('.why-not > span').textContent(), q.why_not[c]);
          assert.ok((await result.locator('.why-not > strong').textContent()).includes(choice));
        }
        // Every other wrong choice explained under "why not the others".
        const others = q.why_not.map((w, k) => [k, w]).filter(([k, w]) => w !== null && k !== c);
        assert.equal(await result.locator('dl dd').count(), others.length);
        for (const [k, w] of others) {
          assert.equal(await result.locator(`dd[data-choice="${k}"]`).textContent(), w);
          assert.equal(await result.locator(`dt[data-choice="${k}"]`).textContent(), q.choices[k]);
        }
        // The buttons that show the run: the command line's labels and links.
        const shows = result.locator('button.show');
        assert.deepEqual(await shows.allTextContents(), q.show.map((s) => s.label));
        assert.deepEqual(await shows.evaluateAll((b) => b.map((x) => x.dataset.query)), q.show.map((s) => s.query));
        assert.ok(/\d/.test(await box.locator('p.score').textContent()));
      }
    }
    assert.equal(await fetches(page), 1);
  });

  test(`"show it running" sets up each question's run on the lanes, with the answer's numbers (${lang})`, async (t) => {
    const data = quiz(lang);
    const page = await open(t, site.browser, `${site.base}?scenario=golden&lang=${lang}`, { reducedMotion: 'reduce' });
    await page.locator('article.lane').first().waitFor();
    await page.locator('details.quiz-fold > summary').click();
    const box = page.locator('.quiz');
    const passed3 = [];
    for (const q of data) {
      const li = box.locator(`li.question[data-question="${q.id}"]`);
      await li.locator(`input[value="${q.correct}"]`).check();
      await li.locator('button.check').click();
      for (const [k, show] of q.show.entries()) {
        await li.locator('button.show').nth(k).click();
        const want = new URLSearchParams(show.query);
        // The page's link is the question's (its setup, moment and request).
        await page.waitForFunction((query) => {
          const have = new URL(location.href).searchParams;
          return [...new URLSearchParams(query)].every(([key, value]) => have.get(key) === value);
        }, show.query);
        assert.equal(await page.locator('article.lane').count(), want.get('limiters').split(',').length);
        // No lesson is open: the numbers on the lanes are the question's run.
        assert.equal(await page.locator('article.lesson .proved').count(), 0);
        if (q.id === 'q1') {
          assert.deepEqual(await column(page, 'passed'), [fact(q, 'passed'), fact(q, 'sl'), fact(q, 'tb')]);
        }
        if (q.id === 'q2') {
          assert.deepEqual(await column(page, 'max-window'), ['fw', 'sl', 'tb', 'swc'].map((n) => fact(q, n)));
        }
        if (q.id === 'q3') passed3.push(...(await column(page, 'passed')));
        if (q.id === 'q4') {
          // The refused request's response on the lane: the answer's status and headers.
          const facts = Object.fromEntries(q.facts);
          const want = `HTTP/1.1 ${facts.status}\nRetry-After: ${facts.retry}\nRateLimit-Policy: ${facts.policy}\nRateLimit: ${facts.ratelimit}`;
          await page.waitForFunction((w) => document.querySelector('article.lane pre.http')?.textContent === w, want);
        }
      }
    }
    // Question 3: per user, bob and carol pass as many more than per address as
    // the answer says.
    const q3 = data.find((q) => q.id === 'q3');
    assert.deepEqual(passed3.length, 2);
    assert.equal(passed3[0] - passed3[1], fact(q3, 'by_user') - fact(q3, 'by_ip'));
  });
}

test('the quiz by keyboard: pick with the arrows, commit with Enter, try again', async (t) => {
  const [q] = quiz('en');
  const page = await open(t, site.browser, `${site.base}?scenario=golden`);
  await page.locator('article.lane').first().waitFor();
  const summary = page.locator('details.quiz-fold > summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  const li = page.locator(`.quiz li.question[data-question="${q.id}"]`);
  await li.waitFor();
  // Tab into the first question's choices; the arrows pick.
  await li.locator('input').first().focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  assert.equal(await li.locator('input:checked').getAttribute('value'), '1');
  await page.keyboard.press('Tab');
  assert.equal(await li.locator('button.check:focus').count(), 1);
  await page.keyboard.press('Enter');
  await li.locator('.verdict:focus').waitFor();
  assert.equal(await li.getAttribute('data-result'), q.correct === 1 ? 'right' : 'wrong');
  // Try again, from the keyboard: the question is asked anew, focus on its choices.
  await li.locator('button.again').focus();
  await page.keyboard.press('Enter');
  await li.locator('input:focus').waitFor();
  assert.equal(await li.locator('.result').count(), 0);
  assert.equal(await li.locator('input:checked').count(), 0);
});
