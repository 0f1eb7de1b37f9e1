import { readFileSync } from 'node:fs';
import { validateWorkflowDefinition } from '@docflow/engine';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { builtinSteps } from '../../src/builtin-steps.ts';
import { processorSteps } from '../../src/executors/processor-steps.ts';

const ajv = new Ajv({ allErrors: true });
const byType = new Map(
  processorSteps().map((step) => [step.type, ajv.compile(step.configSchema ?? {})]),
);

function valid(type: string, config: unknown): boolean {
  const validate = byType.get(type as never);
  if (!validate) throw new Error(`no executor for ${type}`);
  return validate(config);
}

describe('processor step config schemas', () => {
  it('compile in ajv strict mode', () => {
    expect(byType.size).toBe(7);
  });

  it('take exactly one of a saved reference or an inline config', () => {
    const schema = { type: 'object', properties: {} };
    expect(valid('EXTRACT', { extractor: { id: 'ex_1', version: 'latest' } })).toBe(true);
    expect(valid('EXTRACT', { extractorConfig: { schema } })).toBe(true);
    expect(valid('EXTRACT', { extractorConfig: {} })).toBe(false);
    expect(
      valid('EXTRACT', { extractor: { id: 'ex_1', version: '1.0' }, extractorConfig: { schema } }),
    ).toBe(false);
    expect(valid('EXTRACT', {})).toBe(false);
  });

  it('require pinned versions for CLASSIFY and SPLIT', () => {
    expect(valid('CLASSIFY', { classifier: { id: 'cl_1', version: '1.0' } })).toBe(true);
    expect(valid('CLASSIFY', { classifier: { id: 'cl_1', version: 'latest' } })).toBe(false);
    expect(valid('SPLIT', { splitter: { id: 'spl_1', version: 'draft' } })).toBe(true);
    expect(valid('SPLIT', { splitter: { id: 'spl_1', version: 'latest' } })).toBe(false);
    expect(
      valid('CLASSIFY', { classifierConfig: { classifications: [{ id: 'a', type: 'other' }] } }),
    ).toBe(true);
    expect(valid('SPLIT', { splitterConfig: { splitClassifications: [] } })).toBe(false);
  });

  it('check the other steps', () => {
    expect(valid('MERGE_EXTRACT', { mergeOrder: 'alphabetic' })).toBe(true);
    expect(valid('MERGE_EXTRACT', { mergeOrder: 'random' })).toBe(false);
    const rule = { formula: 'TRUE', extractor: { id: 'ex_1', version: '1.0' } };
    expect(valid('CONDITIONAL_EXTRACT', { rules: [rule] })).toBe(true);
    expect(valid('CONDITIONAL_EXTRACT', { rules: [] })).toBe(false);
    const requestOptions = { url: 'https://example.com/check', method: 'POST' };
    expect(valid('EXTERNAL_DATA_VALIDATION', { requestOptions, failureBehavior: 'EXIT' })).toBe(
      true,
    );
    expect(
      valid('EXTERNAL_DATA_VALIDATION', { requestOptions: { ...requestOptions, url: 'ftp://x' } }),
    ).toBe(false);
    expect(valid('FILE_CONVERSION', { failureBehavior: 'CONTINUE' })).toBe(true);
    expect(valid('FILE_CONVERSION', { failureBehavior: 'STOP' })).toBe(false);
  });
});

describe('executor config schemas are the only ones the engine checks step configs against', () => {
  const executors = new Map(builtinSteps().map((step) => [step.type, step]));
  const docs = readFileSync(new URL('../../../../docs/workflows.md', import.meta.url), 'utf8');
  const blocks = [...docs.matchAll(/```json\n([\s\S]*?)```/g)].map(
    (m) => JSON.parse(m[1] ?? 'null') as Record<string, unknown>,
  );

  it("accept docs/workflows.md's examples", () => {
    const definitions = blocks.filter((b) => 'steps' in b);
    expect(definitions.length).toBeGreaterThan(0);
    for (const definition of definitions) {
      expect(validateWorkflowDefinition(definition, { executors })).toEqual([]);
    }
  });

  it('refuse what the definition schema used to refuse on its own', () => {
    const issuesOf = (step: Record<string, unknown>) =>
      validateWorkflowDefinition(
        {
          steps: [
            { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
            { name: 'parse', type: 'PARSE', next: [{ step: 'x' }] },
            { name: 'x', ...step },
          ],
        },
        { executors },
      ).map((i) => [i.code, i.path]);
    const requestOptions = { url: 'https://', method: 'POST' };
    expect(issuesOf({ type: 'EXTERNAL_DATA_VALIDATION', config: { requestOptions } })).toEqual([
      ['CONFIG_INVALID', 'steps[2].config.requestOptions.url'],
    ]);
    expect(
      issuesOf({ type: 'EXTRACT', config: { extractor: { id: 'ex_1', version: 'v1' } } }),
    ).toEqual([['CONFIG_INVALID', 'steps[2].config.extractor.version']]);
  });
});
