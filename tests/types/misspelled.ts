// Must NOT compile: a misspelled mount option ("scenaro").
import { load } from '../../web/ratelab.js';

async function main(): Promise<void> {
  const { mount } = await load();
  mount(document.body, { scenaro: 'edge-burst' });
}

void main();
