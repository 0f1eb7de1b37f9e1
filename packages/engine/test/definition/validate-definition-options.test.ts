import { describe, expect, it } from 'vitest';
import type { ExecutorConfigContract } from '../../src/definition/check-executors.ts';
import { validateWorkflowDefinition } from '../../src/definition/validate-definition.ts';
import type { ProcessorKind } from '../../src/definition/workflow-definition.ts';
import { EngineError } from '../../src/errors.ts';
import { validFixtures } from './fixtures.ts';

const linear = {
  steps: [
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    {
      name: 'parse',
      type: 'PARSE',
      config: { parseConfig: { target: 'html' } },
      next: [{ step: 'extract' }],
    },
    {
      name: 'extract',
      type: 'EXTRACT',
      config: { extractor: { id: 'ex_1', version: '1.0' } },
      next: [{ step: 'webhook' }],
    },
    { name: 'webhook', type: 'WEBHOOK_RESPONSE' },
  ],
};

const parseExecutor: ExecutorConfigContract = {
  configSchema: {
    type: 'object',
    properties: {
      parseConfig: {
        type: 'object',
        properties: { target: { enum: ['markdown', 'spatial'] } },
      },
    },
  },
};

describe('validateWorkflowDefinition with executors', () => {
  it('needs an executor for every executor-backed step type, never for control flow', () => {
    const issues = validateWorkflowDefinition(linear, { executors: new Map() });
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['NO_EXECUTOR', 'steps[1].type'],
      ['NO_EXECUTOR', 'steps[2].type'],
    ]);
    expect(issues[0]?.message).toBe('no executor is registered for PARSE steps');
  });

  it('checks configs against the executor configSchema, with paths into the config', () => {
    const issues = validateWorkflowDefinition(linear, {
      executors: { PARSE: parseExecutor, EXTRACT: {} },
    });
    expect(issues).toEqual([
      {
        code: 'CONFIG_INVALID',
        path: 'steps[1].config.parseConfig.target',
        message: 'must be one of "markdown", "spatial"',
      },
    ]);
  });

  it('does not look executors up on the prototype of a plain object', () => {
    const definition = {
      steps: [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE' },
      ],
    };
    const executors = Object.create({ PARSE: {} }) as Record<string, ExecutorConfigContract>;
    expect(validateWorkflowDefinition(definition, { executors }).map((i) => i.code)).toEqual([
      'NO_EXECUTOR',
    ]);
  });

  it('requires a config when the executor says so, except for drafts', () => {
    const definition = {
      steps: [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'convert' }] },
        { name: 'convert', type: 'FILE_CONVERSION' },
        { name: 'other', type: 'EXTRACT' },
      ],
    };
    const executors = { PARSE: {}, FILE_CONVERSION: { requiresConfig: true }, EXTRACT: {} };
    expect(
      validateWorkflowDefinition(definition, { executors }).map((i) => [i.code, i.path]),
    ).toEqual([
      ['UNREACHABLE_STEP', 'steps[3]'],
      ['CONFIG_REQUIRED', 'steps[2].config'],
      ['CONFIG_REQUIRED', 'steps[3].config'],
    ]);
    expect(
      validateWorkflowDefinition(definition, { executors, stage: 'draft' }).map((i) => i.code),
    ).toEqual(['UNREACHABLE_STEP']);
  });

  it('skips the executor check of a config the definition schema already rejected', () => {
    const definition = structuredClone(linear) as { steps: { config?: unknown }[] };
    const parse = definition.steps[1];
    if (parse) parse.config = 'markdown';
    const issues = validateWorkflowDefinition(definition, {
      executors: { PARSE: parseExecutor, EXTRACT: {} },
    });
    expect(issues.map((i) => [i.code, i.path])).toEqual([['SCHEMA', 'steps[1].config']]);
  });

  it('compiles each configSchema once and reuses it', () => {
    let reads = 0;
    const schema = new Proxy(
      { type: 'object', properties: { parseConfig: { type: 'object' } } },
      {
        get(target, key, receiver) {
          reads++;
          return Reflect.get(target, key, receiver);
        },
      },
    );
    const executors = { PARSE: { configSchema: schema }, EXTRACT: {} };
    expect(validateWorkflowDefinition(linear, { executors })).toEqual([]);
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    expect(validateWorkflowDefinition(linear, { executors })).toEqual([]);
    expect(reads).toBe(afterFirst);
  });

  it('throws INVALID_CONFIGURATION for an executor schema that is not a JSON Schema', () => {
    const executors = { PARSE: { configSchema: { type: 'no-such-type' } }, EXTRACT: {} };
    expect(() => validateWorkflowDefinition(linear, { executors })).toThrow(EngineError);
  });

  it('accepts every valid fixture with permissive executors for every type', () => {
    const executors = new Map<string, ExecutorConfigContract>(
      [
        'PARSE',
        'EXTRACT',
        'CLASSIFY',
        'SPLIT',
        'MERGE_EXTRACT',
        'CONDITIONAL_EXTRACT',
        'EXTERNAL_DATA_VALIDATION',
        'FILE_CONVERSION',
      ].map((t) => [t, { configSchema: { type: 'object' } }]),
    );
    for (const [, definition] of validFixtures()) {
      expect(validateWorkflowDefinition(definition, { executors })).toEqual([]);
    }
  });
});

describe('validateWorkflowDefinition with a processor resolver', () => {
  const routed = {
    steps: [
      { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
      { name: 'parse', type: 'PARSE', next: [{ step: 'classify' }] },
      {
        name: 'classify',
        type: 'CLASSIFY',
        config: { classifier: { id: 'cl_1', version: '1.0' } },
        next: [
          { step: 'extract', classificationId: 'cls_invoice' },
          { step: 'webhook', classificationId: 'cls_memo' },
        ],
      },
      {
        name: 'extract',
        type: 'EXTRACT',
        config: { extractor: { id: 'ex_gone', version: 'latest' } },
        next: [{ step: 'webhook' }],
      },
      { name: 'webhook', type: 'WEBHOOK_RESPONSE' },
    ],
  };

  it('reports missing processors and routing ids the saved classifier lacks', () => {
    const calls: [ProcessorKind, string, string][] = [];
    const issues = validateWorkflowDefinition(routed, {
      processors: {
        resolve(kind, id, version) {
          calls.push([kind, id, version]);
          if (id === 'ex_gone') return 'not_found';
          return { status: 'ok', classificationIds: ['cls_invoice', 'cls_other'] };
        },
      },
    });
    expect(calls).toEqual([
      ['classifier', 'cl_1', '1.0'],
      ['extractor', 'ex_gone', 'latest'],
    ]);
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['UNKNOWN_CLASSIFICATION', 'steps[2].next[1].classificationId'],
      ['PROCESSOR_NOT_FOUND', 'steps[3].config.extractor'],
    ]);
  });

  it('reports a version the resolver does not consider pinned', () => {
    const issues = validateWorkflowDefinition(routed, {
      processors: { resolve: (kind) => (kind === 'classifier' ? 'not_pinned' : 'ok') },
    });
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['VERSION_NOT_PINNED', 'steps[2].config.classifier.version'],
    ]);
  });

  it('does not ask the resolver about "latest" on CLASSIFY: it is never pinned', () => {
    const definition = structuredClone(routed);
    const classify = definition.steps[2] as { config: { classifier: { version: string } } };
    classify.config.classifier.version = 'latest';
    const asked: string[] = [];
    const issues = validateWorkflowDefinition(definition, {
      processors: {
        resolve: (kind) => {
          asked.push(kind);
          return 'ok';
        },
      },
    });
    expect(asked).toEqual(['extractor']);
    expect(issues.map((i) => i.code)).toEqual(['VERSION_NOT_PINNED']);
  });
});

describe('validateWorkflowDefinition option contracts', () => {
  it('accepts any ReadonlyMap-like lookup, not only Map instances', () => {
    const lookup: ReadonlyMap<string, ExecutorConfigContract> = {
      get: (type: string) => (type === 'PARSE' || type === 'EXTRACT' ? {} : undefined),
    } as unknown as ReadonlyMap<string, ExecutorConfigContract>;
    expect(validateWorkflowDefinition(linear, { executors: lookup })).toEqual([]);
  });

  it('throws INVALID_CONFIGURATION when the resolver answers with a promise', () => {
    const processors = { resolve: () => Promise.resolve('ok') as never };
    expect(() => validateWorkflowDefinition(linear, { processors })).toThrow(
      /must return its answer synchronously/,
    );
  });
});
