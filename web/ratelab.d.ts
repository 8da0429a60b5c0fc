// The public types of ratelab's JavaScript API (ratelab.js and the custom element).
// Written by hand, apart from the wasm-bindgen glue's own ratelab-web.d.ts, so that
// they expose no glue internals (InitInput, __wbg_*) and need no `lib: esnext`: a
// project with `"strict": true` and the default lib checks them as they are.
// Checked by `cargo xtask test` (tsc --strict on tests/types/).

/** A request: a time in ms, or an object with a time, a key and a cost. */
export type RequestInput = number | { t: number; key?: string; cost?: number };

/** An algorithm id (the lanes of the page, the command line's `algorithm`). */
export type Algorithm =
  | 'fixed_window'
  | 'fixed_window_anchored'
  | 'sliding_log'
  | 'sliding_window_counter'
  | 'token_bucket'
  | 'leaky_queue'
  | 'gcra'
  | 'nginx'
  | 'sliding_log_logs_blocked'
  | 'token_bucket_f64';

/** One limiter, as in the command line's JSON format. */
export interface LimiterInput {
  algorithm: Algorithm;
  id?: string;
  limit?: number;
  period_ms?: number;
  burst?: number;
  delay?: number;
  nodelay?: boolean;
}

/** A scenario `simulate` runs and the page opens (`ratelab scenarios`; `custom` needs `limiters`). */
export type ScenarioId =
  | 'edge-burst-demo'
  | 'edge-burst'
  | '2x-rate'
  | 'per-second'
  | 'burst-then-drip'
  | 'manual'
  | 'golden'
  | 'swc-late'
  | 'swc-early'
  | 'ten-at-once'
  | 'float-edge'
  | 'lab-a'
  | 'lab-b'
  | 'lab-c'
  | 'lab-d'
  | 'lab-e'
  | 'poisson'
  | 'custom'
  | 'noisy-neighbour'
  | 'retry-storm'
  | 'instances'
  | 'store-outage'
  | 'page-load'
  | 'stacked-limits'
  | 'expensive-route'
  | 'service';

/** A scenario the playground opens: every one (the service view is part of the page). */
export type PageScenarioId = ScenarioId;

/** The input of `simulate`: explicit requests and limiters, or a scenario. */
export interface SimulateConfig {
  requests?: RequestInput[];
  /** Objects, each with its `algorithm` (a bare id is refused). */
  limiters?: LimiterInput[];
  window_ms?: number;
  scenario?: ScenarioId;
  limit?: number;
  period_ms?: number;
  seed?: number;
  load?: number;
  clients?: number;
  duration_ms?: number;
  /** Each request's response per limiter in the report (`LaneResult.responses`); off by default. */
  responses?: boolean;
}

/** One limiter's result. */
export interface LaneResult {
  id: string;
  algorithm: string;
  params: { limit: number; period_ms: number; burst: number | null; delay: number | null; nodelay: boolean };
  allowed: boolean[];
  wait_ms: (number | null)[];
  passed: number;
  blocked: number;
  max_in_window: number;
  window_ms: number;
  max_in_1s: number;
  max_in_window_departures: number | null;
  longest_wait_ms: number;
  histogram_10s: number[];
  keys: number;
  state_numbers: number;
  /** With `responses: true`: what this limiter answered each request, in stream order. */
  responses?: LaneResponse[];
}

/** One response of `LaneResult.responses` (`ratelab respond`'s fields, in its order). */
export interface LaneResponse {
  /** 200, or 429 when refused (a delaying limiter's queued request is a 200). */
  status: 200 | 429;
  /** `Retry-After` (on a 429), both dialects, and `Content-Type` with a body. */
  headers: Record<string, string>;
  /** The 429's JSON body; null on a 200. */
  body: string | null;
}

/** The output of `simulate` (the command line's `ratelab simulate`). */
export interface SimulateReport {
  results: LaneResult[];
  scenario: string | null;
  request_count: number;
  sweep?: {
    baseline: string;
    candidate: string;
    limit: number;
    period_ms: number;
    clients: number;
    duration_ms: number;
    seed: number;
    rows: {
      load: string;
      load_permille: number;
      requests: number;
      baseline_allowed: number;
      candidate_allowed: number;
      wrong_allows: number;
      wrong_blocks: number;
    }[];
  };
}

/** A scenario of the registry. */
export interface ScenarioInfo {
  id: string;
  title: string;
  description: string;
  overrides: string[];
  limit: number;
  period_ms: number;
  window_ms: number | null;
  limiters: LimiterInput[];
}

/** A number, or the text a URL would carry (`"10s"`, `"500ms"`). */
type Value = number | string;

/**
 * Options of `mount` (and attributes of `<rate-limit-playground>`): the URL
 * parameters of the playground, plus `compact` and `theme`. A misspelled option is
 * a type error; lane i's own parameters are `"burst.1"`, `"period.0"`, …
 */
export interface MountOptions {
  scenario?: PageScenarioId;
  /** Comma-separated algorithm ids, or an array of them (1 to 8). */
  limiters?: string | Algorithm[];
  limit?: Value;
  /** A duration: "10s", "500ms", "1m", or a number of ms. */
  period?: Value;
  window?: Value;
  requests?: string;
  seed?: Value;
  load?: Value;
  clients?: Value;
  duration?: Value;
  t?: Value;
  /** The clock's speed: one of these (a link's `speed=`). */
  speed?: 0.25 | 0.5 | 1 | 2 | 4 | 8 | 16 | '0.25' | '0.5' | '1' | '2' | '4' | '8' | '16';
  sel?: Value;
  lang?: 'en' | 'vi';
  hl?: boolean | Value;
  /** One line per lane over its timeline and the clock; a lane's details (its state, gauge and 429) open on demand. */
  compact?: boolean;
  /** `auto` (the default) follows the host's `color-scheme`, then the OS. */
  theme?: 'light' | 'dark' | 'auto';
  /**
   * For the element and the iframe (`mount` itself ignores it): the full
   * playground's address (http(s) or a path, no `?` or `#`) that the ↗ link at the
   * end of the clock bar opens, at what the reader sees. By default the index.html
   * beside their script; "" for no link.
   */
  playground?: string;
  [lane: `${'limit' | 'period' | 'burst' | 'delay' | 'nodelay' | 'algorithm'}.${number}`]: Value | boolean | undefined;
}

/** A mounted playground. It stays alive without this handle. */
export interface Playground {
  /** Removes the playground from its element (a second call does nothing). */
  unmount(): void;
  /** Its state as a query string (for `embed.html?…` or the page); "" once unmounted. */
  query(): string;
}

/** What a live limiter says about one request: the decision and the response. */
export interface CheckResult {
  /** Whether the request passes (after `wait_ms`, for the leaky queue and nginx). */
  allowed: boolean;
  /** 200, or 429 when refused (a delaying limiter's request passes with a wait). */
  status: 200 | 429;
  /** ms the request is held before it passes, rounded up (0 for the meters); null when refused. */
  wait_ms: number | null;
  /** When refused: ms until the same request would pass, rounded up; else null. */
  retry_after_ms: number | null;
  /** The `Retry-After` value (whole seconds, at least 1) on a 429; else null. */
  retry_after: number | null;
  /** Requests of cost 1 that would still pass now, after this one. */
  remaining: number;
  /** ms until `remaining` grows, rounded up. */
  reset_ms: number;
  /**
   * The response's fields in the order a server sends them: `Retry-After` (on a
   * 429), `RateLimit-Policy`, `RateLimit`, `X-RateLimit-Limit`,
   * `X-RateLimit-Remaining`, `X-RateLimit-Reset`, and `Content-Type` with a body.
   */
  headers: Record<string, string>;
  /** The 429's JSON body (`{"error": "rate_limit_exceeded", "retry_after_seconds": N}`); null on a 200. */
  body: string | null;
}

/** A live limiter (`limiter(config)`): one engine limiter per key (a new one starts fresh). */
export interface Limiter {
  /**
   * Decides a request at `now` ms (a safe integer ≥ 0 on your own clock, never
   * earlier than the previous check's, for any key), of `cost` (default 1), from
   * `key` (default ""). Throws a `TypeError` for an argument of the wrong type, an
   * `Error` with one line for a bad value; nothing is changed then.
   */
  check(now: number, cost?: number, key?: string): CheckResult;
  /** Gives its memory back now (else when it is garbage-collected). */
  free(): void;
}

/** What `load()` resolves to. */
export interface Ratelab {
  /** Runs a config; throws a `TypeError` for a non-object, an `Error` with the command line's message on bad input. */
  simulate(config: SimulateConfig): SimulateReport;
  /** JSON text in, the command line's JSON text out; a `TypeError` if `text` is not a string. */
  simulateJson(text: string): string;
  /**
   * `simulate` in a module worker on the same wasm, so that a heavy run (lab D's
   * sweep, a long stream) leaves the page's main thread free. Resolves to the
   * object `simulate` returns; rejects with the `TypeError` or `Error` it throws
   * (the same line). The config is copied (structured clone) when called. Where
   * no worker can run (none can start, or the config cannot be cloned: a Proxy,
   * a getter that throws), `simulate` runs on the main thread in a later task.
   */
  simulateAsync(config: SimulateConfig): Promise<SimulateReport>;
  /** `simulateJson` in the worker, as `simulateAsync` is `simulate`. */
  simulateJsonAsync(text: string): Promise<string>;
  /** The scenario registry. */
  scenarios(): ScenarioInfo[];
  /**
   * A live limiter from a lane's limiter object (as in `limiters`), deciding one
   * request at a time with the engine `simulate` runs. Throws a `TypeError` for a
   * non-object, an `Error` with the command line's message for a lane it refuses.
   */
  limiter(config: LimiterInput): Limiter;
  /**
   * Mounts a playground into `element`. A `TypeError` if it is not an element or
   * `options` not an object; an `Error` if it is not in the document or already
   * holds one.
   */
  mount(element: HTMLElement, options?: MountOptions): Playground;
}

/**
 * Loads the wasm once per page and the API's runs (their chunk, `split_api.wasm`),
 * and resolves to the API. Rejects with one line if a file cannot be fetched; a
 * later call tries again. (Node and Workers: ratelab-files.js.)
 */
export function load(): Promise<Ratelab>;

/**
 * Loads the wasm once per page and resolves to `{ mount }` alone, without the
 * API's runs: what a page that only shows playgrounds needs.
 */
export function start(): Promise<Pick<Ratelab, 'mount'>>;
