import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyRunState } from '../../src/run/copy-run-state.ts';
import type { RunState } from '../../src/run/run-state.ts';

/** Every object and array reachable from `value`. */
function containers(value: unknown, out: unknown[] = []): unknown[] {
  if (value === null || typeof value !== 'object') return out;
  out.push(value);
  for (const child of Object.values(value)) containers(child, out);
  return out;
}

describe('copyRunState', () => {
  it('copies any JSON value deeply: equal, sharing no object or array', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = copyRunState(value as unknown as RunState);
        expect(copy).toStrictEqual(value);
        const originals = new Set(containers(value));
        for (const c of containers(copy)) expect(originals.has(c)).toBe(false);
      }),
    );
  });

  it('keeps a "__proto__" key of parsed JSON as data', () => {
    const state = JSON.parse('{"metadata":{"__proto__":{"polluted":true}}}') as RunState;
    const copy = copyRunState(state) as unknown as { metadata: Record<string, unknown> };
    expect(Object.keys(copy.metadata)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy.metadata)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe('{"metadata":{"__proto__":{"polluted":true}}}');
  });

  it('leaves the original untouched when the copy is changed', () => {
    const state = {
      id: 'workflow_run_1',
      stepRuns: [{ id: 's1', fileIds: ['f1'], lineage: { a: ['x'] } }],
    } as unknown as RunState;
    const copy = copyRunState(state) as unknown as {
      stepRuns: { fileIds: string[]; lineage: { a: string[] } }[];
    };
    copy.stepRuns[0]?.fileIds.push('f2');
    copy.stepRuns[0]?.lineage.a.push('y');
    expect(state).toEqual({
      id: 'workflow_run_1',
      stepRuns: [{ id: 's1', fileIds: ['f1'], lineage: { a: ['x'] } }],
    });
  });
});
