import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/definition/workflow-definition.ts';
import { buildWorkflowGraph } from '../../src/definition/workflow-graph.ts';
import { EngineError } from '../../src/errors.ts';
import { validFixtures } from './fixtures.ts';

const fixture = (name: string): WorkflowDefinition => {
  const found = validFixtures().find(([n]) => n === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found[1];
};

describe('buildWorkflowGraph', () => {
  const graph = buildWorkflowGraph(fixture('split-and-route.workflow.json'));

  it('indexes steps, the trigger, successors and predecessors', () => {
    expect(graph.trigger.name).toBe('trigger');
    expect(graph.step('split').type).toBe('SPLIT');
    expect(graph.stepByName.get('collect')?.type).toBe('COLLECT');
    expect(graph.successors('split')).toEqual(['extract_invoice', 'extract_receipt', 'review']);
    expect(graph.predecessors('collect')).toEqual(['extract_invoice', 'extract_receipt', 'review']);
    expect(graph.successors('webhook')).toEqual([]);
    expect(graph.predecessors('trigger')).toEqual([]);
  });

  it('orders steps topologically, ties in definition order', () => {
    expect(graph.topologicalOrder).toEqual([
      'trigger',
      'parse',
      'split',
      'extract_invoice',
      'extract_receipt',
      'review',
      'collect',
      'webhook',
    ]);
  });

  it('answers reachability, reflexively', () => {
    expect(graph.canReach('trigger', 'webhook')).toBe(true);
    expect(graph.canReach('extract_invoice', 'collect')).toBe(true);
    expect(graph.canReach('extract_invoice', 'review')).toBe(false);
    expect(graph.canReach('collect', 'split')).toBe(false);
    expect(graph.canReach('review', 'review')).toBe(true);
  });

  it('throws for an unknown step name', () => {
    expect(() => graph.step('nope')).toThrow(/Unknown step "nope"/);
    expect(() => graph.canReach('nope', 'parse')).toThrow(/Unknown step/);
  });

  it('keeps each successor once even when several entries route to it', () => {
    const conditional = buildWorkflowGraph(fixture('conditional.workflow.json'));
    expect(conditional.successors('route')).toEqual(['review', 'webhook']);
  });

  it('agrees with a reference reachability on every fixture and every pair', () => {
    for (const [, definition] of validFixtures()) {
      const g = buildWorkflowGraph(definition);
      const names = definition.steps.map((s) => s.name);
      const reference = (from: string, to: string): boolean => {
        const seen = new Set([from]);
        const stack = [from];
        while (stack.length > 0) {
          const at = stack.pop() ?? '';
          if (at === to) return true;
          for (const next of g.successors(at)) {
            if (!seen.has(next)) {
              seen.add(next);
              stack.push(next);
            }
          }
        }
        return false;
      };
      for (const a of names) for (const b of names) expect(g.canReach(a, b)).toBe(reference(a, b));
      const position = new Map(g.topologicalOrder.map((n, i) => [n, i]));
      for (const a of names) {
        for (const b of g.successors(a)) {
          expect(position.get(a) ?? 0).toBeLessThan(position.get(b) ?? 0);
        }
      }
    }
  });

  it('handles more than 32 steps (several bitset words)', () => {
    const chain = Array.from({ length: 70 }, (_, i) => ({
      name: `review${i}`,
      type: 'HUMAN_REVIEW' as const,
      next: i < 69 ? [{ step: `review${i + 1}` }] : [],
    }));
    const definition: WorkflowDefinition = {
      steps: [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'review0' }] },
        ...chain,
      ],
    };
    const g = buildWorkflowGraph(definition);
    expect(g.canReach('review3', 'review68')).toBe(true);
    expect(g.canReach('review68', 'review3')).toBe(false);
    expect(g.canReach('parse', 'review69')).toBe(true);
  });

  it('throws VALIDATION_FAILED with the issues for a graph that is not a rooted DAG', () => {
    const definition = {
      steps: [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'review' }] },
        { name: 'review', type: 'HUMAN_REVIEW', next: [{ step: 'parse' }] },
      ],
    } as WorkflowDefinition;
    let error: unknown;
    try {
      buildWorkflowGraph(definition);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('VALIDATION_FAILED');
    expect((error as EngineError).details.issues?.map((i) => i.code)).toEqual(['CYCLE']);
  });
});
