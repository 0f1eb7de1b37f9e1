import { readFileSync } from 'node:fs';
import { validateWorkflowDefinition } from './validate-definition.ts';

const f = JSON.parse(
  readFileSync(
    new URL('../../test/definition/fixtures/all-step-types.workflow.json', import.meta.url),
    'utf8',
  ),
);
const t = performance.now();
validateWorkflowDefinition(f);
const a = performance.now() - t;
const t2 = performance.now();
for (let i = 0; i < 2000; i++) validateWorkflowDefinition(f);
const b = (performance.now() - t2) / 2000;
console.log('first', a.toFixed(1), 'then', (b * 1000).toFixed(0), 'us');
