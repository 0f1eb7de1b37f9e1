import { defineStep, type StepDefinition } from '@docflow/engine';
import { createTestEngine } from '@docflow/engine/testing';
import { describe, expect, it } from 'vitest';

const extract = {
  extractorConfig: { schema: { type: 'object', properties: { score: { type: 'number' } } } },
};

// Found by random-dag.prop.test.ts: forks of one step shared a single lineage object, so a
// COLLECT join that merged into one fork's lineage leaked outputs into its siblings' paths.
describe('path lineage', () => {
  it('a COLLECT join does not leak outputs into sibling paths of the same fork', async () => {
    const seen: Record<string, string[]> = {};
    const record = (type: 'PARSE' | 'EXTRACT') =>
      defineStep({
        type,
        async execute(input) {
          seen[input.stepName] = Object.keys(input.outputs).sort();
          return { output: { value: { score: 1 }, metadata: {} } };
        },
      });
    const engine = await createTestEngine({
      steps: [record('PARSE'), record('EXTRACT')],
      scheduling: { concurrency: 1 },
    });
    try {
      const run = await engine.run([
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        {
          name: 'parse',
          type: 'PARSE',
          next: [{ step: 'first' }, { step: 'join' }, { step: 'sibling' }],
        },
        { name: 'first', type: 'EXTRACT', config: extract, next: [{ step: 'join' }] },
        { name: 'join', type: 'COLLECT' },
        { name: 'sibling', type: 'EXTRACT', config: extract },
      ] as unknown as StepDefinition[]);
      expect(run.status).toBe('PROCESSED');
      // With one slot, "first" completes (and joins) before "sibling" runs.
      expect(seen.sibling).toEqual(['parse', 'trigger']);
    } finally {
      await engine.stop();
    }
  });
});
