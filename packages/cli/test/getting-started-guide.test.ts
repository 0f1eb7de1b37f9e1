/** docs/guides/getting-started.md: its workflow is valid and its commands are the CLI's. */
import { readFileSync } from 'node:fs';
import { validateWorkflowDefinition } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { expect, it } from 'vitest';
import { INVOICE_WORKFLOW } from './run-cli.ts';

const guide = readFileSync(
  new URL('../../../docs/guides/getting-started.md', import.meta.url),
  'utf8',
);

it('shows a workflow that validates with the shipped executors', () => {
  const json = /```json\n([\s\S]*?)\n```/.exec(guide)?.[1];
  expect(json).toBeDefined();
  const definition = JSON.parse(json ?? '{}') as { steps: unknown };
  const executors = new Map(builtinSteps().map((s) => [s.type, s]));
  expect(validateWorkflowDefinition({ steps: definition.steps }, { executors })).toEqual([]);
  // The same workflow the CLI's end-to-end test runs, so the outputs shown are checked there.
  expect(definition).toEqual(JSON.parse(INVOICE_WORKFLOW));
});
