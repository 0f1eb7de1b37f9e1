import fc from 'fast-check';
import type {
  StepDefinition,
  WorkflowDefinition,
} from '../../src/definition/workflow-definition.ts';

type Kind = 'plain' | 'classify' | 'split' | 'conditional' | 'rules';

const MIDDLE_TYPES = [
  ['HUMAN_REVIEW', 'plain'],
  ['COLLECT', 'plain'],
  ['FILE_CONVERSION', 'plain'],
  ['EXTRACT', 'plain'],
  ['EXTERNAL_DATA_VALIDATION', 'plain'],
  ['CONDITIONAL_EXTRACT', 'plain'],
  ['CLASSIFY', 'classify'],
  ['SPLIT', 'split'],
  ['CONDITIONAL', 'conditional'],
  ['RULE_VALIDATION', 'rules'],
] as const;

const ROUTE_IDS = ['cls_a', 'cls_b', 'cls_other'] as const;
const CONDITION_IDS = ['c_if', 'c_else'] as const;
const RESULTS = ['pass', 'fail', undefined] as const;

function configOf(type: (typeof MIDDLE_TYPES)[number][0]): Record<string, unknown> | undefined {
  const classifications = ROUTE_IDS.map((id) => ({ id, type: id === 'cls_other' ? 'other' : id }));
  switch (type) {
    case 'EXTRACT':
      return { extractor: { id: 'ex_1', version: '1.0' } };
    case 'EXTERNAL_DATA_VALIDATION':
      return { requestOptions: { url: 'https://example.com/check', method: 'POST' } };
    case 'CONDITIONAL_EXTRACT':
      return {
        rules: [
          { formula: 'metadata.region = "EU"', extractor: { id: 'ex_eu', version: 'latest' } },
          { formula: 'TRUE', extractor: { id: 'ex_1', version: '1.0' } },
        ],
      };
    case 'CLASSIFY':
      return { classifierConfig: { classifications } };
    case 'SPLIT':
      return { splitterConfig: { splitClassifications: classifications } };
    case 'CONDITIONAL':
      return {
        conditions: [
          {
            id: 'c_if',
            type: 'IF',
            operation: 'GT',
            leftOperand: '{{metadata.n}}',
            rightOperand: '3',
          },
          { id: 'c_else', type: 'ELSE' },
        ],
      };
    case 'RULE_VALIDATION':
      return { rules: [{ name: 'positive', formula: 'metadata.n > 0' }] };
    default:
      return undefined;
  }
}

/** A random acyclic, fully reachable definition: trigger → parse → middle steps → webhook. */
export const validDagDefinition: fc.Arbitrary<WorkflowDefinition> = fc
  .integer({ min: 0, max: 12 })
  .chain((middle) => {
    // Node 0 is parse, 1..middle are middle steps, middle + 1 is the webhook.
    const count = middle + 2;
    return fc.record({
      types: fc.array(fc.constantFrom(...MIDDLE_TYPES), { minLength: middle, maxLength: middle }),
      parents: fc.tuple(
        ...Array.from({ length: count - 1 }, (_, k) => fc.integer({ min: 0, max: k })),
      ),
      extra: fc.array(
        fc.tuple(fc.nat({ max: count - 1 }), fc.nat({ max: count - 1 }), fc.nat({ max: 5 })),
        { maxLength: count * 2 },
      ),
    });
  })
  .map(({ types, parents, extra }) => {
    const count = types.length + 2;
    const name = (i: number) => (i === 0 ? 'parse' : i === count - 1 ? 'webhook' : `s${i}`);
    const kindOf = (i: number): Kind => (i === 0 ? 'plain' : (types[i - 1]?.[1] ?? 'plain'));
    const edges: [from: number, to: number, pick: number][] = parents.map((p, k) => [p, k + 1, k]);
    for (const [a, b, pick] of extra) if (a < b && b < count) edges.push([a, b, pick]);
    const next: Map<number, Record<string, string>[]> = new Map();
    const seen = new Set<string>();
    for (const [from, to, pick] of edges) {
      const entry: Record<string, string> = { step: name(to) };
      const kind = kindOf(from);
      if (kind === 'classify' || kind === 'split') {
        entry.classificationId = ROUTE_IDS[pick % ROUTE_IDS.length] ?? 'cls_a';
      } else if (kind === 'conditional') {
        entry.conditionId = CONDITION_IDS[pick % CONDITION_IDS.length] ?? 'c_if';
      } else if (kind === 'rules') {
        const result = RESULTS[pick % RESULTS.length];
        if (result) entry.result = result;
      }
      const key = `${from}:${JSON.stringify(entry)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      next.set(from, [...(next.get(from) ?? []), entry]);
    }
    const steps: unknown[] = [{ name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] }];
    for (let i = 0; i < count; i++) {
      const type = i === 0 ? 'PARSE' : i === count - 1 ? 'WEBHOOK_RESPONSE' : types[i - 1]?.[0];
      const config =
        type && type !== 'PARSE' && type !== 'WEBHOOK_RESPONSE' ? configOf(type) : undefined;
      const step: Record<string, unknown> = { name: name(i), type };
      if (config) step.config = config;
      const entries = next.get(i);
      if (entries) step.next = entries;
      steps.push(step);
    }
    return { steps: steps as StepDefinition[] };
  });
