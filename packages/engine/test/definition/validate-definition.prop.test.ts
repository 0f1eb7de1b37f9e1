import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateWorkflowDefinition } from '../../src/definition/validate-definition.ts';
import type { StepDefinition } from '../../src/definition/workflow-definition.ts';
import { buildWorkflowGraph } from '../../src/definition/workflow-graph.ts';
import { STEP_TYPES } from '../../src/step-executor.ts';
import { validDagDefinition } from './definition-arbitraries.ts';
import { invalidCases, validFixtures } from './fixtures.ts';

// Hundreds of generated cases per property: generous for a shared, loaded machine.
const PROPERTY_TIMEOUT_MS = 60_000;

describe('validateWorkflowDefinition (properties)', () => {
  it(
    'random DAG-shaped definitions validate clean and index consistently',
    () => {
      fc.assert(
        fc.property(validDagDefinition, (definition) => {
          expect(validateWorkflowDefinition(definition)).toEqual([]);
          const graph = buildWorkflowGraph(definition);
          expect(graph.topologicalOrder).toHaveLength(definition.steps.length);
          for (const step of definition.steps) {
            expect(graph.canReach('trigger', step.name)).toBe(true);
            expect(graph.canReach(step.name, 'trigger')).toBe(step.name === 'trigger');
          }
        }),
        { numRuns: 200 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'an edge that closes a cycle is always reported',
    () => {
      const withBackEdge = validDagDefinition.chain((definition) =>
        fc.record({
          definition: fc.constant(definition),
          from: fc.nat({ max: definition.steps.length - 1 }),
          to: fc.nat({ max: definition.steps.length - 1 }),
        }),
      );
      fc.assert(
        fc.property(withBackEdge, ({ definition, from, to }) => {
          const graph = buildWorkflowGraph(definition);
          const source = definition.steps[from];
          const target = definition.steps[to];
          fc.pre(source !== undefined && target !== undefined);
          if (!source || !target) return;
          // An edge source → target closes a cycle exactly when target already reaches source.
          fc.pre(source.type !== 'WEBHOOK_RESPONSE' && graph.canReach(target.name, source.name));
          const entry: Record<string, string> = { step: target.name };
          if (source.type === 'CLASSIFY' || source.type === 'SPLIT')
            entry.classificationId = 'cls_a';
          if (source.type === 'CONDITIONAL') entry.conditionId = 'c_if';
          const steps = definition.steps.map((s, i) =>
            i === from ? ({ ...s, next: [...(s.next ?? []), entry] } as StepDefinition) : s,
          );
          const issues = validateWorkflowDefinition({ steps });
          const cycles = issues.filter((i) => i.code === 'CYCLE');
          expect(cycles).toHaveLength(1);
          expect(cycles[0]?.message).toContain(`"${target.name}"`);
          expect(cycles[0]?.message).toContain(`"${source.name}"`);
          expect(() => buildWorkflowGraph({ steps })).toThrow(
            expect.objectContaining({
              details: {
                issues: expect.arrayContaining([expect.objectContaining({ code: 'CYCLE' })]),
              },
            }),
          );
        }),
        { numRuns: 200 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  const stepLike = fc.record(
    {
      name: fc.oneof(fc.constantFrom('trigger', 'parse', 'a', 'b', 'metadata'), fc.jsonValue()),
      type: fc.oneof(fc.constantFrom(...STEP_TYPES), fc.jsonValue()),
      config: fc.oneof(
        fc.jsonValue(),
        fc.record(
          {
            conditions: fc.array(
              fc.dictionary(
                fc.constantFrom('id', 'type', 'operation', 'leftOperand', 'rightOperand'),
                fc.oneof(
                  fc.string(),
                  fc.constantFrom('IF', 'ELSE', 'ELSE_IF', 'GT', 'FORMULA', '{{', '{{a}}'),
                ),
              ),
            ),
            rules: fc.array(
              fc.dictionary(
                fc.constantFrom('name', 'formula', 'extractor'),
                fc.oneof(fc.string(), fc.jsonValue()),
              ),
            ),
            body: fc.string(),
            classifierConfig: fc.jsonValue(),
            classifier: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
      ),
      next: fc.oneof(
        fc.jsonValue(),
        fc.array(
          fc.record(
            {
              step: fc.oneof(fc.constantFrom('trigger', 'parse', 'a', 'b'), fc.jsonValue()),
              classificationId: fc.jsonValue(),
              conditionId: fc.jsonValue(),
              result: fc.jsonValue(),
            },
            { requiredKeys: [] },
          ),
        ),
      ),
      retry: fc.jsonValue(),
      timeoutMs: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );

  it(
    'never throws, whatever the input, and always returns well-formed issues',
    () => {
      const input = fc.oneof(
        fc.anything(),
        fc.jsonValue(),
        fc.record({ steps: fc.array(fc.oneof(stepLike, fc.jsonValue()), { maxLength: 12 }) }),
      );
      fc.assert(
        fc.property(input, (definition) => {
          const issues = validateWorkflowDefinition(definition);
          for (const issue of issues) {
            expect(typeof issue.code).toBe('string');
            expect(typeof issue.path).toBe('string');
            expect(issue.message.length).toBeGreaterThan(0);
          }
        }),
        { numRuns: 500 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'never throws on a fixture with one value replaced by arbitrary JSON',
    () => {
      const definitions = [
        ...validFixtures().map(([, d]) => d as unknown),
        ...invalidCases().map(([, c]) => c.definition),
      ];
      const mutated = fc
        .record({
          definition: fc.constantFrom(...definitions),
          pick: fc.nat(),
          value: fc.jsonValue(),
        })
        .map(({ definition, pick, value }) => replaceAt(definition, pick, value));
      fc.assert(
        fc.property(mutated, (definition) => {
          expect(Array.isArray(validateWorkflowDefinition(definition))).toBe(true);
        }),
        { numRuns: 500 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

/** A deep copy of `root` with the `pick`-th node (pre-order) replaced by `value`. */
function replaceAt(root: unknown, pick: number, value: unknown): unknown {
  const nodes: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const copy = structuredClone(root);
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        nodes.push({ parent: node, key: i });
        walk(child);
      });
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        nodes.push({ parent: node as Record<string, unknown>, key });
        walk(child);
      }
    }
  };
  walk(copy);
  const target = nodes[pick % Math.max(1, nodes.length)];
  if (!target) return value;
  (target.parent as Record<string | number, unknown>)[target.key] = value;
  return copy;
}
