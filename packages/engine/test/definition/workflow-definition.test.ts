import { describe, expect, it } from 'vitest';
import { validateWorkflowDefinition } from '../../src/definition/validate-definition.ts';
import type {
  ClassifyStep,
  ExtractStep,
  StepDefinition,
  StepDefinitionOf,
  TriggerStep,
  WebhookResponseStep,
  WorkflowDefinition,
} from '../../src/definition/workflow-definition.ts';

// The type lines below are checked by `tsc -p tsconfig.check.json` (tests are included there).
describe('WorkflowDefinition types', () => {
  it('a typed definition of every routing shape validates clean', () => {
    const definition: WorkflowDefinition = {
      steps: [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'classify' }] },
        {
          name: 'classify',
          type: 'CLASSIFY',
          config: { classifier: { id: 'cl_1', version: '1.0' } },
          next: [
            { step: 'extract', classificationId: 'cls_invoice' },
            { step: 'route', classificationId: 'cls_other' },
          ],
        },
        {
          name: 'extract',
          type: 'EXTRACT',
          config: { extractorConfig: { schema: { type: 'object' } } },
          retry: { maxAttempts: 3 },
          timeoutMs: 60_000,
          next: [{ step: 'checks' }],
        },
        {
          name: 'checks',
          type: 'RULE_VALIDATION',
          config: { rules: [{ name: 'total', formula: 'extract.total > 0' }] },
          next: [
            { step: 'webhook', result: 'pass' },
            { step: 'review', result: 'fail' },
          ],
        },
        {
          name: 'route',
          type: 'CONDITIONAL',
          config: {
            conditions: [
              {
                id: 'vip',
                type: 'IF',
                operation: 'EQUALS',
                leftOperand: '{{metadata.tier}}',
                rightOperand: 'vip',
              },
              { id: 'rest', type: 'ELSE' },
            ],
          },
          next: [{ step: 'review', conditionId: 'vip' }],
        },
        { name: 'review', type: 'HUMAN_REVIEW', next: [{ step: 'webhook' }] },
        { name: 'webhook', type: 'WEBHOOK_RESPONSE', config: { body: 'run.id' } },
      ],
    };
    expect(validateWorkflowDefinition(definition)).toEqual([]);
  });

  it('rejects the shapes a definition may not take, at compile time', () => {
    // @ts-expect-error CLASSIFY next entries need a classificationId.
    const classify: ClassifyStep = { name: 'c', type: 'CLASSIFY', next: [{ step: 'x' }] };
    // @ts-expect-error TRIGGER takes no config.
    const trigger: TriggerStep = { name: 't', type: 'TRIGGER', config: {} };
    const extract: ExtractStep = {
      name: 'e',
      type: 'EXTRACT',
      // @ts-expect-error exactly one of extractor and extractorConfig.
      config: { extractor: { id: 'ex', version: '1.0' }, extractorConfig: { schema: {} } },
    };
    const webhook: WebhookResponseStep = {
      name: 'w',
      type: 'WEBHOOK_RESPONSE',
      // @ts-expect-error WEBHOOK_RESPONSE is terminal.
      next: [{ step: 'x' }],
    };
    const narrowed: StepDefinitionOf<'SPLIT'>['type'] = 'SPLIT';
    const steps: StepDefinition[] = [classify, trigger, extract, webhook];
    expect(steps.map((s) => s.type)).toEqual([
      'CLASSIFY',
      'TRIGGER',
      'EXTRACT',
      'WEBHOOK_RESPONSE',
    ]);
    expect(narrowed).toBe('SPLIT');
  });
});
