import { describe, expect, it } from 'vitest';
import { DefinitionIssueCode } from '../../src/definition/definition-issue-code.ts';
import { validateWorkflowDefinition } from '../../src/definition/validate-definition.ts';
import { invalidCases, validFixtures } from './fixtures.ts';

const codesAndPaths = (issues: readonly { code: string; path: string }[]) =>
  issues.map(({ code, path }) => ({ code, path }));

describe('validateWorkflowDefinition: valid fixtures', () => {
  it.each(validFixtures())('%s has no issues', (_name, definition) => {
    expect(validateWorkflowDefinition(definition)).toEqual([]);
  });

  it('the fixtures use all 14 step types', () => {
    const types = new Set(validFixtures().flatMap(([, d]) => d.steps.map((s) => s.type)));
    expect(types.size).toBe(14);
  });
});

describe('validateWorkflowDefinition: one case per check', () => {
  it.each(invalidCases())('%s', (_name, testCase) => {
    const issues = validateWorkflowDefinition(testCase.definition);
    expect(codesAndPaths(issues)).toEqual(testCase.issues);
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(5);
  });

  it('every issue code the validator can report without executors has a case', () => {
    const covered = new Set(invalidCases().flatMap(([, c]) => c.issues.map((i) => i.code)));
    const needOptions = new Set(['PROCESSOR_NOT_FOUND', 'CONFIG_INVALID', 'NO_EXECUTOR']);
    const missing = Object.values(DefinitionIssueCode).filter(
      (code) => !covered.has(code) && !needOptions.has(code),
    );
    expect(missing).toEqual([]);
  });
});

describe('validateWorkflowDefinition: all issues at once', () => {
  it('reports every problem of a broken definition with its exact path', () => {
    const definition = {
      steps: [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'classify' }, { step: 'extrct' }] },
        {
          name: 'classify',
          type: 'CLASSIFY',
          config: {
            classifierConfig: {
              classifications: [
                { id: 'cls_a', type: 'a' },
                { id: 'cls_a', type: 'b' },
              ],
            },
          },
          next: [
            { step: 'extract', classificationId: 'cls_a' },
            { step: 'extract', classificationId: 'cls_z' },
            { step: 'review' },
          ],
        },
        { name: 'extract', type: 'EXTRACT', next: [{ step: 'checks' }] },
        {
          name: 'checks',
          type: 'RULE_VALIDATION',
          config: { rules: [{ name: 'ok', formula: 'extract.total > (1' }] },
          next: [
            { step: 'extract', result: 'pass' },
            { step: 'webhook', result: 'maybe' },
          ],
        },
        { name: 'extract', type: 'HUMAN_REVIEW' },
        { name: 'webhook', type: 'WEBHOOK_RESPONSE', config: { body: '$sum(' } },
        { name: 'lonely', type: 'COLLECT', timeoutMs: 0 },
      ],
    };
    const issues = validateWorkflowDefinition(definition);
    expect(codesAndPaths(issues)).toEqual([
      { code: 'SCHEMA', path: 'steps[2].next[2].classificationId' },
      { code: 'SCHEMA', path: 'steps[4].next[1].result' },
      { code: 'SCHEMA', path: 'steps[7].timeoutMs' },
      { code: 'DUPLICATE_STEP_NAME', path: 'steps[5].name' },
      { code: 'UNKNOWN_STEP', path: 'steps[1].next[1].step' },
      { code: 'UNKNOWN_STEP', path: 'steps[2].next[2].step' },
      { code: 'CYCLE', path: 'steps[4].next[0].step' },
      { code: 'UNREACHABLE_STEP', path: 'steps[7]' },
      {
        code: 'DUPLICATE_CLASSIFICATION_ID',
        path: 'steps[2].config.classifierConfig.classifications[1].id',
      },
      {
        code: 'OTHER_CLASSIFICATION_COUNT',
        path: 'steps[2].config.classifierConfig.classifications',
      },
      { code: 'UNKNOWN_CLASSIFICATION', path: 'steps[2].next[1].classificationId' },
      { code: 'FORMULA_PARSE_ERROR', path: 'steps[4].config.rules[0].formula' },
      { code: 'JSONATA_PARSE_ERROR', path: 'steps[6].config.body' },
      { code: 'CONFIG_REQUIRED', path: 'steps[3].config' },
    ]);
    expect(issues.find((i) => i.code === 'UNKNOWN_STEP')?.message).toBe(
      'no step is named "extrct"; did you mean "extract"?',
    );
    expect(issues.find((i) => i.code === 'CYCLE')?.message).toContain(
      '"extract" → "checks" → "extract"',
    );
  });

  it('reports a non-object definition as one schema issue', () => {
    expect(validateWorkflowDefinition(null)).toEqual([
      { code: 'SCHEMA', path: '', message: 'the definition must be an object' },
    ]);
    expect(codesAndPaths(validateWorkflowDefinition({ steps: [] }))).toEqual([
      { code: 'SCHEMA', path: 'steps' },
      { code: 'TRIGGER_COUNT', path: 'steps' },
    ]);
  });

  it('names the step type when a field is not allowed on it', () => {
    const issues = validateWorkflowDefinition({
      steps: [
        { name: 'trigger', type: 'TRIGGER', config: {}, next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'extract' }] },
        { name: 'extract', type: 'EXTRACT', config: 'extract' },
      ],
    });
    // What an executor step's config holds is its executor's to say (configSchema); the
    // definition only requires an object.
    expect(issues).toEqual([
      { code: 'SCHEMA', path: 'steps[0].config', message: 'is not allowed on a TRIGGER step' },
      { code: 'SCHEMA', path: 'steps[2].config', message: 'must be an object' },
    ]);
  });
});

describe('validateWorkflowDefinition on oversized input', () => {
  it('stays quick with huge names (no quadratic hint search)', () => {
    const huge = 'x'.repeat(200_000);
    const definition = {
      steps: [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: `${huge}a` }] },
        { name: `${huge}b`, type: 'HUMAN_REVIEW' },
      ],
    };
    const issues = validateWorkflowDefinition(definition);
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['SCHEMA', 'steps[1].next[0].step'],
      ['SCHEMA', 'steps[2].name'],
      ['UNKNOWN_STEP', 'steps[1].next[0].step'],
      ['UNREACHABLE_STEP', 'steps[2]'],
    ]);
    expect(issues[2]?.message).not.toContain('did you mean');
  });
});
