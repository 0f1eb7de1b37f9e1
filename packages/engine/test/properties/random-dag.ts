import { type StepDefinition, validateWorkflowDefinition } from '@docflow/engine';
import fc from 'fast-check';
import { DETERMINISTIC_TYPES } from './deterministic-steps.ts';

const MIDDLE_TYPES = [
  'EXTRACT',
  'CLASSIFY',
  'SPLIT',
  'RULE_VALIDATION',
  'COLLECT',
  'MERGE_EXTRACT',
  'HUMAN_REVIEW',
] as const;
type MiddleType = (typeof MIDDLE_TYPES)[number];

const CLASSES = [
  { id: 'cls_a', type: 'alpha', description: 'alpha documents' },
  { id: 'cls_b', type: 'beta', description: 'beta documents' },
  { id: 'cls_other', type: 'other', description: 'anything else' },
];
const RESULTS = ['pass', 'fail', undefined] as const;

// Joins and fan-outs are where completion order could matter: draw them more often.
const middleType: fc.Arbitrary<MiddleType> = fc.oneof(
  { arbitrary: fc.constant('EXTRACT' as const), weight: 3 },
  { arbitrary: fc.constant('COLLECT' as const), weight: 3 },
  { arbitrary: fc.constant('SPLIT' as const), weight: 3 },
  { arbitrary: fc.constant('CLASSIFY' as const), weight: 2 },
  { arbitrary: fc.constant('RULE_VALIDATION' as const), weight: 2 },
  { arbitrary: fc.constant('MERGE_EXTRACT' as const), weight: 2 },
  { arbitrary: fc.constant('HUMAN_REVIEW' as const), weight: 1 },
);

/** A generated workflow and the metadata its runs get. */
export interface RandomWorkflow {
  readonly steps: StepDefinition[];
  /** Short description for failure messages. */
  readonly shape: string;
}

const permissive = Object.fromEntries(DETERMINISTIC_TYPES.map((t) => [t, {}]));

/** True when the engine would accept `steps` for deploy with the deterministic executors. */
export function isValidWorkflow(steps: readonly StepDefinition[]): boolean {
  return validateWorkflowDefinition({ steps }, { executors: permissive }).length === 0;
}

function configOf(
  type: MiddleType,
  upstreamExtract: string | undefined,
  threshold: number,
): Record<string, unknown> | undefined {
  switch (type) {
    case 'EXTRACT':
      return {
        extractorConfig: { schema: { type: 'object', properties: { score: { type: 'number' } } } },
      };
    case 'CLASSIFY':
      return { classifierConfig: { classifications: CLASSES } };
    case 'SPLIT':
      return { splitterConfig: { splitClassifications: CLASSES } };
    case 'RULE_VALIDATION':
      return {
        rules: [
          {
            name: 'score above threshold',
            formula: upstreamExtract
              ? `${upstreamExtract}.score > ${threshold}`
              : `metadata.n > ${threshold}`,
          },
        ],
      };
    default:
      return undefined;
  }
}

/**
 * Random DAG-shaped definitions: TRIGGER → PARSE → 1..`maxMiddle` steps among EXTRACT, CLASSIFY
 * (routes by classification id), SPLIT (child files), RULE_VALIDATION (pass/fail/plain entries),
 * COLLECT, MERGE_EXTRACT and HUMAN_REVIEW; every step has a parent earlier in the order (so it is reachable)
 * plus random forward edges (COLLECTs get more incoming ones). MERGE_EXTRACT without an extraction upstream becomes EXTRACT;
 * rules read an upstream extraction's score when there is one. Only definitions that pass
 * `validateWorkflowDefinition` are produced.
 */
export function randomWorkflow(maxMiddle = 7): fc.Arbitrary<RandomWorkflow> {
  return fc
    .integer({ min: Math.min(3, maxMiddle), max: maxMiddle })
    .chain((middle) =>
      fc.record({
        types: fc.array(middleType, { minLength: middle, maxLength: middle }),
        parents: fc.tuple(...Array.from({ length: middle }, (_, k) => fc.nat({ max: k }))),
        joins: fc.tuple(
          ...Array.from({ length: middle }, (_, k) =>
            fc.array(fc.nat({ max: k }), { maxLength: 2 }),
          ),
        ),
        picks: fc.array(fc.nat({ max: 5 }), { minLength: middle, maxLength: middle }),
        extra: fc.array(fc.tuple(fc.nat({ max: middle }), fc.nat({ max: middle }), fc.nat(5)), {
          maxLength: middle * 3,
        }),
        thresholds: fc.array(fc.integer({ min: 10, max: 90 }), {
          minLength: middle,
          maxLength: middle,
        }),
      }),
    )
    .map(({ types: drawn, parents, joins, picks, extra, thresholds }) => {
      const count = drawn.length + 1; // node 0 is PARSE
      const name = (i: number) => (i === 0 ? 'parse' : `s${i}`);
      const edges = new Map<string, [number, number, number]>();
      parents.forEach((p, k) => {
        edges.set(`${p}>${k + 1}`, [p, k + 1, picks[k] ?? 0]);
      });
      // A COLLECT gets up to two more incoming edges, so that joins of several paths are common.
      joins.forEach((froms, k) => {
        if (drawn[k] !== 'COLLECT') return;
        for (const [j, a] of froms.entries()) {
          if (!edges.has(`${a}>${k + 1}`)) edges.set(`${a}>${k + 1}`, [a, k + 1, j + 1]);
        }
      });
      for (const [a, b, pick] of extra) {
        if (a < b && b < count && !edges.has(`${a}>${b}`)) edges.set(`${a}>${b}`, [a, b, pick]);
      }
      const ancestors: Set<number>[] = Array.from({ length: count }, () => new Set());
      const sorted = [...edges.values()].sort((x, y) => x[1] - y[1] || x[0] - y[0]);
      for (const [a, b] of sorted) {
        const into = ancestors[b] as Set<number>;
        into.add(a);
        for (const x of ancestors[a] ?? []) into.add(x);
      }
      const types: (MiddleType | 'PARSE')[] = ['PARSE'];
      for (let i = 1; i < count; i++) {
        const t = drawn[i - 1] as MiddleType;
        const hasExtract = [...(ancestors[i] ?? [])].some(
          (a) => types[a] === 'EXTRACT' || types[a] === 'MERGE_EXTRACT',
        );
        types.push(t === 'MERGE_EXTRACT' && !hasExtract ? 'EXTRACT' : t);
      }
      const next = new Map<number, Record<string, string>[]>();
      const firstPick = new Map<number, number>();
      for (const [from, to, pick] of sorted) {
        const entry: Record<string, string> = { step: name(to) };
        const kind = types[from];
        const ordinal = next.get(from)?.length ?? 0;
        const base = firstPick.get(from) ?? pick;
        firstPick.set(from, base);
        if (kind === 'CLASSIFY' || kind === 'SPLIT') {
          // Successive entries take successive classes, so that most routes lead somewhere.
          const cls = CLASSES[(base + ordinal) % CLASSES.length] ?? CLASSES[0];
          entry.classificationId = cls?.id as string;
        } else if (kind === 'RULE_VALIDATION') {
          const result = RESULTS[pick % RESULTS.length];
          if (result) entry.result = result;
        }
        next.set(from, [...(next.get(from) ?? []), entry]);
      }
      const steps: Record<string, unknown>[] = [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
      ];
      for (let i = 0; i < count; i++) {
        const type = types[i] as MiddleType | 'PARSE';
        const step: Record<string, unknown> = { name: name(i), type };
        if (type !== 'PARSE') {
          const extract = [...(ancestors[i] ?? [])]
            .sort((a, b) => b - a)
            .find((a) => types[a] === 'EXTRACT' || types[a] === 'MERGE_EXTRACT');
          const config = configOf(
            type,
            extract === undefined ? undefined : name(extract),
            thresholds[i - 1] ?? 50,
          );
          if (config) step.config = config;
        }
        const entries = next.get(i);
        if (entries) step.next = entries;
        steps.push(step);
      }
      const shape = steps
        .map((s) => {
          const targets = ((s.next ?? []) as Record<string, string>[])
            .map(
              (n) =>
                `${n.step}${n.classificationId ? `[${n.classificationId}]` : ''}${n.result ? `[${n.result}]` : ''}`,
            )
            .join(',');
          return `${s.name}:${String(s.type)}${targets ? `→${targets}` : ''}`;
        })
        .join(' ');
      return { steps: steps as unknown as StepDefinition[], shape };
    })
    .filter((wf) => isValidWorkflow(wf.steps));
}
