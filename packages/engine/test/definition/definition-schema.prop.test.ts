import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkDefinitionSchema,
  workflowDefinitionSchema,
} from '../../src/definition/definition-schema.ts';
import { STEP_TYPES } from '../../src/step-executor.ts';
import { ajvErrorsToIssues } from '../../src/validation/ajv-issues.ts';
import { validDagDefinition } from './definition-arbitraries.ts';
import { invalidCases, validFixtures } from './fixtures.ts';

// Hundreds of generated cases per property: generous for a shared, loaded machine.
const PROPERTY_TIMEOUT_MS = 60_000;

// checkDefinitionSchema validates in pieces (shell, step base, one schema per step type); the
// exported whole schema must say exactly the same.
// compiled strictly, as every schema of the engine's own must compile.
const whole = new Ajv({
  allErrors: true,
  verbose: true,
  strict: true,
  strictRequired: false,
  logger: false,
}).compile(workflowDefinitionSchema);

function wholeIssues(definition: unknown): string[] {
  if (whole(definition)) return [];
  const steps = (definition as { steps?: unknown } | null)?.steps;
  return ajvErrorsToIssues(whole.errors, {
    code: 'SCHEMA',
    context: (path) => {
      const match = /^steps\[(\d+)\]\.[A-Za-z]+$/.exec(path);
      if (!match || !Array.isArray(steps)) return undefined;
      const type = (steps[Number(match[1])] as { type?: unknown } | null)?.type;
      if (typeof type !== 'string') return undefined;
      return `on ${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type} step`;
    },
  })
    .map((i) => `${i.path} ${i.path === '' ? `the definition ${i.message}` : i.message}`)
    .sort();
}

const pieceIssues = (definition: unknown): string[] =>
  checkDefinitionSchema(definition)
    .map((i) => `${i.path} ${i.message}`)
    .sort();

describe('checkDefinitionSchema equals the whole workflowDefinitionSchema', () => {
  it('on every fixture and case', () => {
    const inputs = [
      ...validFixtures().map(([, d]) => d as unknown),
      ...invalidCases().map(([, c]) => c.definition),
      null,
      [],
      { steps: [] },
      { steps: 'x', extra: 1 },
    ];
    for (const input of inputs) expect(pieceIssues(input)).toEqual(wholeIssues(input));
  });

  it(
    'on random step-shaped input',
    () => {
      const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...STEP_TYPES));
      const stepish = fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record(
          {
            name: value,
            type: fc.oneof(fc.constantFrom(...STEP_TYPES), value),
            config: fc.oneof(
              value,
              fc.dictionary(
                fc.constantFrom(
                  'extractor',
                  'classifierConfig',
                  'conditions',
                  'rules',
                  'requestOptions',
                  'body',
                  'mergeOrder',
                  'x',
                ),
                value,
              ),
            ),
            next: fc.oneof(
              value,
              fc.array(
                fc.dictionary(
                  fc.constantFrom('step', 'classificationId', 'conditionId', 'result', 'y'),
                  value,
                ),
              ),
            ),
            retry: value,
          },
          { requiredKeys: [] },
        ),
      );
      fc.assert(
        fc.property(
          fc.oneof(fc.record({ steps: fc.array(stepish, { maxLength: 6 }) }), validDagDefinition),
          (definition) => {
            expect(pieceIssues(definition)).toEqual(wholeIssues(definition));
          },
        ),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
