import { describe, expect, it } from 'vitest';
import { lineageOf } from '../../src/run/run-lineage.ts';
import type { RunState, StepRunState } from '../../src/run/run-state.ts';

function step(id: string, stepName: string, extra: Partial<StepRunState> = {}): StepRunState {
  return {
    id,
    stepName,
    stepType: 'PARSE',
    status: 'PROCESSED',
    fileIds: [],
    attempt: 1,
    createdAt: '2026-11-23T07:00:00.000Z',
    ...extra,
  };
}

const state = (stepRuns: StepRunState[]) => ({ stepRuns }) as unknown as RunState;

describe('lineageOf', () => {
  it('follows a path back through its parents', () => {
    const t = step('sr_t', 'trigger', { parents: [] });
    const a = step('sr_a', 'a', { parents: ['sr_t'] });
    const b = step('sr_b', 'b', { parents: ['sr_a'] });
    const c = step('sr_c', 'c', { parents: ['sr_b'] });
    const s = state([t, a, b, c]);
    expect(lineageOf(s, t)).toEqual({});
    expect(lineageOf(s, c)).toEqual({ trigger: 'sr_t', a: 'sr_a', b: 'sr_b' });
  });

  it('gives forks of one step the same lineage, each of its own', () => {
    const t = step('sr_t', 'trigger', { parents: [] });
    const split = step('sr_s', 'split', { parents: ['sr_t'] });
    const f1 = step('sr_f1', 'each', { parents: ['sr_s'] });
    const f2 = step('sr_f2', 'each', { parents: ['sr_s'] });
    const s = state([t, split, f1, f2]);
    const one = lineageOf(s, f1);
    expect(one).toEqual({ trigger: 'sr_t', split: 'sr_s' });
    expect(lineageOf(s, f2)).toEqual(one);
    expect(lineageOf(s, f2)).not.toBe(one);
  });

  it('merges the paths a COLLECT joined, in order, one step run per name or several', () => {
    const t = step('sr_t', 'trigger', { parents: [] });
    const p = step('sr_p', 'parse', { parents: ['sr_t'] });
    const x1 = step('sr_x1', 'extract', { parents: ['sr_p'] });
    const x2 = step('sr_x2', 'extract', { parents: ['sr_p'] });
    const join = step('sr_j', 'join', { parents: ['sr_x1', 'sr_x2'] });
    const after = step('sr_after', 'after', { parents: ['sr_j'] });
    const s = state([t, p, x1, x2, join, after]);
    expect(lineageOf(s, join)).toEqual({
      trigger: 'sr_t',
      parse: 'sr_p',
      extract: ['sr_x1', 'sr_x2'],
    });
    expect(lineageOf(s, after)).toEqual({
      trigger: 'sr_t',
      parse: 'sr_p',
      extract: ['sr_x1', 'sr_x2'],
      join: 'sr_j',
    });
  });

  it('takes the lineage a step run of an older snapshot holds, and builds on it', () => {
    const t = step('sr_t', 'trigger', { lineage: {} });
    const a = step('sr_a', 'a', { lineage: { trigger: 'sr_t' } });
    const b = step('sr_b', 'b', { parents: ['sr_a'] });
    const s = state([t, a, b]);
    expect(lineageOf(s, a)).toEqual({ trigger: 'sr_t' });
    expect(lineageOf(s, b)).toEqual({ trigger: 'sr_t', a: 'sr_a' });
  });
});
