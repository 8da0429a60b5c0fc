// Must compile under tsc --strict: the uses in README.md and docs/embedding.md of the API and the element.
import { load, start, type MountOptions, type SimulateReport } from '../../web/ratelab.js';
import { load as loadFiles, type RatelabFiles } from '../../web/ratelab-files.js';
import '../../web/rate-limit-playground.js';

async function main(): Promise<void> {
  const ratelab = await load();
  const { mount } = await start();
  mount(document.createElement('div'), { scenario: 'lab-c' });
  const report: SimulateReport = ratelab.simulate({
    requests: [0, 100, { t: 200, key: 'a', cost: 2 }],
    limiters: [{ algorithm: 'gcra', limit: 5, period_ms: 1000 }, { algorithm: 'token_bucket' }],
  });
  // What the runtime refuses does not compile (each line below must be an error:
  // tsc reports an unused @ts-expect-error).
  // @ts-expect-error a bare id in limiters: the runtime wants {algorithm: 'gcra'}
  ratelab.simulate({ limiters: ['gcra'] });
  // @ts-expect-error no such scenario
  ratelab.simulate({ scenario: 'golden-stream' });
  // A service scenario runs in simulate too.
  ratelab.simulate({ scenario: 'retry-storm' });
  // @ts-expect-error no such algorithm
  ratelab.simulate({ limiters: [{ algorithm: 'gcra2' }] });
  // @ts-expect-error the clock runs at 0.25, 0.5, 1, 2, 4, 8 or 16
  ratelab.mount(document.body, { speed: 3 });
  // @ts-expect-error no such scenario
  ratelab.mount(document.body, { scenario: 'lab-z' });
  // @ts-expect-error simulateJson takes text
  ratelab.simulateJson({ scenario: 'golden' });
  // Responses on request.
  const answered = ratelab.simulate({ scenario: 'golden', responses: true });
  const first: 200 | 429 | undefined = answered.results[0].responses?.[0].status;
  const body: string | null | undefined = answered.results[0].responses?.[0].body;
  // @ts-expect-error responses is true or false
  ratelab.simulate({ scenario: 'golden', responses: 'yes' });
  // The live limiter.
  const limit = ratelab.limiter({ algorithm: 'gcra', limit: 10, period_ms: 1000, burst: 5 });
  const decided = limit.check(0, 1, 'client-42');
  const status: 200 | 429 = decided.status;
  const retry: string | undefined = decided.headers['Retry-After'];
  const wait: number | null = limit.check(5).wait_ms;
  // @ts-expect-error now is a number of ms, not a Date
  limit.check(new Date());
  // @ts-expect-error a key is a string
  limit.check(0, 1, 42);
  // @ts-expect-error no such algorithm
  ratelab.limiter({ algorithm: 'token-bucket' });
  // @ts-expect-error cost is a number
  limit.check(0, '2');
  limit.free();
  // The files given rather than fetched (Node, a Worker).
  const bytes = new Uint8Array(8);
  const files: RatelabFiles = await loadFiles({ wasm: bytes, chunks: { 'split_api.wasm': bytes.buffer } });
  files.limiter({ algorithm: 'leaky_queue', limit: 3, period_ms: 1000 }).check(0);
  // @ts-expect-error the chunks are needed too
  void loadFiles({ wasm: bytes });
  // @ts-expect-error no mount without a page
  files.mount(document.body, {});
  // The page opens service scenarios, at the speeds it has.
  const service: MountOptions = { scenario: 'retry-storm', speed: '0.5' };
  const passed: number = report.results[0].passed;
  const text: string = ratelab.simulateJson('{"scenario":"golden"}');
  const later: SimulateReport = await ratelab.simulateAsync({ scenario: 'lab-d' });
  const laterText: string = await ratelab.simulateJsonAsync('{"scenario":"golden"}');
  const ids: string[] = ratelab.scenarios().map((s) => s.id);
  const options: MountOptions = {
    scenario: 'edge-burst',
    limiters: ['fixed_window', 'sliding_log', 'token_bucket'],
    limit: 5,
    period: '10s',
    'burst.2': 4,
    compact: true,
    theme: 'dark',
  };
  const root = document.createElement('div');
  document.body.append(root);
  const playground = ratelab.mount(root, options);
  const query: string = playground.query();
  playground.unmount();
  const element = document.querySelector('rate-limit-playground');
  const elementQuery: string | undefined = element?.query;
  const made = document.createElement('rate-limit-playground');
  console.log(status, retry, wait, service, passed, text, later.sweep?.rows.length, laterText, ids, query, elementQuery, made.query);
}

void main();
