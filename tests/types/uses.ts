// Must compile under tsc --strict: the uses in README.md and docs/embedding.md of the API and the element.
import { load, start, type MountOptions, type SimulateReport } from '../../web/ratelab.js';
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
  console.log(service, passed, text, later.sweep?.rows.length, laterText, ids, query, elementQuery, made.query);
}

void main();
