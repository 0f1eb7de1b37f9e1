import type { JsonValue } from '@docflow/storage';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftRunState, freezeDeep } from '../../src/run/run-draft.ts';
import type { RunState, StepRunState } from '../../src/run/run-state.ts';

const json = fc.jsonValue({ maxDepth: 2 });

function stepRun(i: number, extra: Partial<StepRunState> = {}): StepRunState {
  return {
    id: `workflow_step_run_${i}`,
    stepName: `s${i}`,
    stepType: 'PARSE',
    status: 'PROCESSING',
    fileIds: ['file_1'],
    lineage: i === 0 ? {} : { [`s${i - 1}`]: `workflow_step_run_${i - 1}` },
    attempt: 1,
    createdAt: '2026-11-23T07:00:00.000Z',
    ...extra,
  };
}

function runState(stepRuns: StepRunState[]): RunState {
  return {
    v: 1,
    id: 'workflow_run_1',
    workflow: {
      object: 'workflow',
      id: 'workflow_1',
      name: 'w',
      createdAt: '2026-11-23T07:00:00.000Z',
      updatedAt: '2026-11-23T07:00:00.000Z',
      createdBy: null,
    },
    status: 'PROCESSING',
    metadata: { a: 1 },
    fileIds: ['file_1'],
    fileIndex: {},
    stepRuns,
    updatedAt: '2026-11-23T07:00:00.000Z',
  } as unknown as RunState;
}

/** One change a transition may make to a draft: replace values, add or drop fields or runs. */
const change = fc.oneof(
  fc.record({
    kind: fc.constant('run' as const),
    key: fc.constantFrom('status', 'metadata', 'updatedAt', 'secretsRef', 'endTime'),
    value: json,
  }),
  fc.record({
    kind: fc.constant('step' as const),
    index: fc.nat(9),
    key: fc.constantFrom(
      'status',
      'output',
      'fileIds',
      'lineage',
      'route',
      'failureMessage',
      'attempt',
    ),
    value: json,
  }),
  fc.record({
    kind: fc.constant('drop' as const),
    index: fc.nat(9),
    key: fc.constantFrom('output', 'failureMessage', 'startTime'),
  }),
  fc.record({
    kind: fc.constant('undefine' as const),
    index: fc.nat(9),
    key: fc.constantFrom('output', 'route'),
  }),
  fc.record({ kind: fc.constant('add' as const), value: json }),
  fc.record({ kind: fc.constant('file' as const), id: fc.string({ maxLength: 4 }) }),
);
type Change = typeof change extends fc.Arbitrary<infer C> ? C : never;

function apply(draft: RunState, c: Change): void {
  const d = draft as unknown as Record<string, unknown>;
  const sr = (i: number) =>
    draft.stepRuns[i % Math.max(1, draft.stepRuns.length)] as unknown as
      | Record<string, unknown>
      | undefined;
  switch (c.kind) {
    case 'run':
      d[c.key] = c.value;
      return;
    case 'step': {
      const s = sr(c.index);
      if (s) s[c.key] = c.value;
      return;
    }
    case 'drop': {
      const s = sr(c.index);
      if (s) delete s[c.key];
      return;
    }
    case 'undefine': {
      const s = sr(c.index);
      if (s) s[c.key] = undefined;
      return;
    }
    case 'add':
      draft.stepRuns.push(stepRun(draft.stepRuns.length, { output: c.value as JsonValue }));
      return;
    case 'file':
      draft.fileIndex = { ...draft.fileIndex, [c.id]: { id: c.id } as never };
  }
}

describe('draftRunState', () => {
  it('leaves the committed state as it was, whatever transitions do to the draft', () => {
    fc.assert(
      fc.property(fc.array(fc.array(change, { maxLength: 5 }), { maxLength: 6 }), (commits) => {
        let state = runState([stepRun(0)]);
        for (const changes of commits) {
          // Frozen as in check mode: a change in place below a step run would throw here.
          freezeDeep(state);
          const before = JSON.stringify(state);
          const draft = draftRunState(state);
          expect(draft).toEqual(state);
          for (const c of changes) apply(draft, c);
          expect(JSON.stringify(state)).toBe(before);
          state = draft;
        }
      }),
    );
  });

  it('copies what transitions change in place and shares what they replace', () => {
    const state = runState([stepRun(0, { output: { total: 1 } })]);
    const draft = draftRunState(state);
    expect(draft).toEqual(state);
    expect(draft).not.toBe(state);
    expect(draft.stepRuns).not.toBe(state.stepRuns);
    expect(draft.stepRuns[0]).not.toBe(state.stepRuns[0]);
    expect(draft.fileIndex).toBe(state.fileIndex);
    expect(draft.stepRuns[0]?.output).toBe(state.stepRuns[0]?.output);
    expect(draft.metadata).toBe(state.metadata);
    (draft.stepRuns[0] as StepRunState).status = 'PROCESSED';
    draft.stepRuns.push(stepRun(1));
    draft.fileIndex = { ...draft.fileIndex, file_2: { id: 'file_2' } as never };
    draft.status = 'PROCESSED';
    expect(state).toEqual(runState([stepRun(0, { output: { total: 1 } })]));
  });

  it('check mode: a frozen state throws on a change in place below a step run', () => {
    const state = runState([stepRun(0)]);
    freezeDeep(state);
    const draft = draftRunState(state);
    expect(() => (draft.stepRuns[0] as StepRunState).fileIds.push('file_2')).toThrow(TypeError);
    expect(() => {
      (draft.metadata as Record<string, unknown>).b = 2;
    }).toThrow(TypeError);
    // Replacing is what transitions do, and it works on the draft.
    (draft.stepRuns[0] as StepRunState).fileIds = ['file_1', 'file_2'];
    expect(state.stepRuns[0]?.fileIds).toEqual(['file_1']);
  });
});
