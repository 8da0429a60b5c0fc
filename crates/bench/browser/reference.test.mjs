// The JavaScript yardstick must implement the same algorithms before it is timed:
// SPEC.md's golden table, and the spots where floats are known to bite.
// `cargo xtask bench` runs this first (node --test, a few milliseconds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as js from './reference.mjs';

const GOLDEN = [2000, 7000, 8000, 9000, 9500, 9800, 10100, 10400, 10700, 11200, 15000, 19500];
const P = { limit: 5, periodMs: 10_000, burst: 5, nginxBurst: 0 };

function marks(make, params = P, times = GOLDEN) {
  const f = make(params);
  return times.map((t) => (f(t) ? '✓' : '✗')).join('');
}

test('SPEC golden table', () => {
  assert.equal(marks(js.fixedWindow), '✓✓✓✓✓✗✓✓✓✓✓✗');
  assert.equal(marks(js.fixedWindowAnchored), '✓✓✓✓✓✗✗✗✗✗✓✓');
  assert.equal(marks(js.slidingLog), '✓✓✓✓✓✗✗✗✗✗✓✓');
  assert.equal(marks(js.slidingWindowCounter), '✓✓✓✓✓✗✓✗✗✗✓✓');
  assert.equal(marks(js.tokenBucket), '✓✓✓✓✓✓✓✗✗✓✓✓');
  assert.equal(marks(js.leakyQueue), '✓✓✓✓✓✓✓✓✗✓✓✓');
  assert.equal(marks(js.gcra), '✓✓✓✓✓✓✓✗✗✓✓✓');
});

test('the float bucket denies the request that finds exactly one token', () => {
  // SPEC: 0.85 + 0.15 < 1.0 in IEEE 754, so 11.0 s is denied (the exact bucket allows).
  const times = [...GOLDEN.slice(0, 9), 11_000];
  assert.equal(marks(js.tokenBucket, P, times), '✓✓✓✓✓✓✓✗✗✗');
});

test('nginx burst=5 admits 6 at once; the wrong log blocks a persistent client', () => {
  const n = js.nginx({ limit: 1, periodMs: 1000, nginxBurst: 5 });
  assert.equal(Array.from({ length: 10 }, () => n(0)).filter(Boolean).length, 6);
  const every400 = Array.from({ length: 50 }, (_, i) => i * 400);
  const count = (make) => {
    const f = make({ limit: 2, periodMs: 1000 });
    return every400.filter((t) => f(t)).length;
  };
  assert.equal(count(js.slidingLog), 34);
  assert.equal(count(js.slidingLogLogsBlocked), 2);
});

test('every id of the engine has a twin', () => {
  assert.deepEqual(
    js.LIMITERS.map(([id]) => id),
    [
      'fixed_window', 'fixed_window_anchored', 'sliding_log', 'sliding_window_counter',
      'token_bucket', 'leaky_queue', 'gcra', 'nginx', 'sliding_log_logs_blocked',
      'token_bucket_f64',
    ],
  );
});
