// The example docs page's own script: uses the JavaScript API (simulate) to fill a
// table. (The iframes are sized by the shipped embed-resize.js.)
import { load } from './ratelab.js';

const GOLDEN = [2000, 7000, 8000, 9000, 9500, 9800, 10100, 10400, 10700, 11200, 15000, 19500];

function fill(limit) {
  return load().then(({ simulate }) => {
    const report = simulate({
      requests: GOLDEN,
      limiters: ['fixed_window', 'sliding_log', 'token_bucket'].map((algorithm) => ({
        algorithm,
        limit,
        period_ms: 10000,
      })),
    });
    const body = document.querySelector('#api-table tbody');
    body.replaceChildren(
      ...report.results.map((r) => {
        const tr = document.createElement('tr');
        for (const text of [r.id, r.allowed.map((a) => (a ? '✓' : '✗')).join(''), r.passed, r.max_in_window]) {
          const td = document.createElement('td');
          td.textContent = String(text);
          tr.append(td);
        }
        return tr;
      }),
    );
    try {
      simulate({ requests: [0], limiters: [{ algorithm: 'gcra', limit: NaN, period_ms: 1000 }] });
    } catch (err) {
      document.getElementById('api-error').textContent = err.message;
    }
  });
}

// The API's runs are a chunk of their own (load() fetches it): asked for when the
// table comes into view, so the page's first lanes come first.
const table = document.getElementById('api-table');
new IntersectionObserver((entries, observer) => {
  if (entries.some((e) => e.isIntersecting)) {
    observer.disconnect();
    fill(5);
  }
}, { rootMargin: '200px' }).observe(table);
document.getElementById('api-run').addEventListener('click', () => fill(3));
