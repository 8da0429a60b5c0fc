// The limiters of SPEC.md written the way people usually write them in JavaScript:
// a closure per client over a little state, plain floating-point numbers, and an
// array with `shift()` for the sliding log. Written for ratelab's browser benchmark
// (the yardstick the wasm engine is compared against); not copied from anywhere.
//
// Each factory takes the benchmark's parameters and returns `(t) => boolean`:
// t is the arrival time in ms, the result says whether the request passes (for the
// queue and nginx: passes, possibly after a delay). Floats are the point: this is
// the inexact code the exact engine must not be slower than.

/** Fixed window aligned on the clock: floor(t / W). */
export function fixedWindow({ limit, periodMs }) {
  let window = -1;
  let count = 0;
  return (t) => {
    const w = Math.floor(t / periodMs);
    if (w !== window) {
      window = w;
      count = 0;
    }
    if (count < limit) {
      count++;
      return true;
    }
    return false;
  };
}

/** Fixed window opened by the first request, [start, start + W). */
export function fixedWindowAnchored({ limit, periodMs }) {
  let start = null;
  let count = 0;
  return (t) => {
    if (start === null || t >= start + periodMs) {
      start = t;
      count = 0;
    }
    if (count < limit) {
      count++;
      return true;
    }
    return false;
  };
}

/** Sliding log: drop times <= t - W, allow if fewer than N remain, log allowed ones. */
export function slidingLog({ limit, periodMs }) {
  const log = [];
  return (t) => {
    while (log.length > 0 && log[0] <= t - periodMs) log.shift();
    if (log.length < limit) {
      log.push(t);
      return true;
    }
    return false;
  };
}

/** The wrong sliding log that logs blocked requests too. */
export function slidingLogLogsBlocked({ limit, periodMs }) {
  const log = [];
  return (t) => {
    while (log.length > 0 && log[0] <= t - periodMs) log.shift();
    const allowed = log.length < limit;
    log.push(t);
    return allowed;
  };
}

/** Sliding window counter: prev weighted by how much of it still overlaps. */
export function slidingWindowCounter({ limit, periodMs }) {
  let window = 0;
  let prev = 0;
  let curr = 0;
  return (t) => {
    const w = Math.floor(t / periodMs);
    if (w !== window) {
      prev = w === window + 1 ? curr : 0;
      curr = 0;
      window = w;
    }
    const elapsed = (t - w * periodMs) / periodMs;
    if (prev * (1 - elapsed) + curr < limit) {
      curr++;
      return true;
    }
    return false;
  };
}

/** Token bucket with float tokens, refilled lazily, full at time 0. */
export function tokenBucket({ limit, periodMs, burst }) {
  const perMs = limit / periodMs;
  let tokens = burst;
  let last = 0;
  return (t) => {
    tokens = Math.min(burst, tokens + (t - last) * perMs);
    last = t;
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  };
}

/** Leaky bucket as a queue: one departure every gap ms, at most `burst` waiting. */
export function leakyQueue({ limit, periodMs, burst }) {
  const gap = periodMs / limit;
  let nextOut = 0;
  return (t) => {
    const out = Math.max(nextOut, t);
    if ((out - t) / gap >= burst) return false;
    nextOut = out + gap;
    return true; // after waiting out - t ms
  };
}

/** GCRA: one theoretical arrival time. */
export function gcra({ limit, periodMs, burst }) {
  const T = periodMs / limit;
  const tau = T * (burst - 1);
  let tat = 0;
  return (t) => {
    const start = Math.max(tat, t);
    if (start - t > tau) return false;
    tat = start + T;
    return true;
  };
}

/** nginx limit_req: excess in 1/1000 request, drained at `rate` per second. */
export function nginx({ limit, periodMs, nginxBurst }) {
  const rate = Math.floor((limit * 1e6) / periodMs);
  let excess = 0;
  let last = null;
  return (t) => {
    let e = 0;
    if (last !== null) e = Math.max(0, excess - (rate * (t - last)) / 1000 + 1000);
    if (e > nginxBurst * 1000) return false;
    excess = e;
    last = t;
    return true; // delayed (e / rate) s when e > 0 (delay = 0)
  };
}

/** The ids of ratelab's JSON format, in its order, with their JavaScript twins. */
export const LIMITERS = [
  ['fixed_window', fixedWindow],
  ['fixed_window_anchored', fixedWindowAnchored],
  ['sliding_log', slidingLog],
  ['sliding_window_counter', slidingWindowCounter],
  ['token_bucket', tokenBucket],
  ['leaky_queue', leakyQueue],
  ['gcra', gcra],
  ['nginx', nginx],
  ['sliding_log_logs_blocked', slidingLogLogsBlocked],
  // The engine's float bucket is the snippet above, so the twin is the same code.
  ['token_bucket_f64', tokenBucket],
];

/** The benchmark's parameters (crates/bench/src/lib.rs): 100 per minute, defaults. */
export const PARAMS = { limit: 100, periodMs: 60_000, burst: 100, nginxBurst: 0 };
