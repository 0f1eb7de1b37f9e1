import { describe, expect, it } from 'vitest';
import { isStorageError } from '../../src/errors.ts';
import { validateChanges } from '../../src/internal/validate.ts';
import type { Changes, RunWrite } from '../../src/storage-adapter.ts';

const run: RunWrite = {
  id: 'r',
  kind: 'workflow_run',
  status: 'PROCESSING',
  active: true,
  priority: 50,
  snapshot: { id: 'r' },
  expectedRevision: 3,
  patch: [[['a'], 1]],
  events: [{ type: 'step.start', data: {} }],
  at: '2030-01-01T12:00:00.000Z',
};

/** The path a rejected commit names, in its message and in its details. */
function rejectedPath(changes: unknown): string {
  try {
    validateChanges(changes as Changes);
  } catch (error) {
    expect(isStorageError(error, 'INVALID_ARGUMENT')).toBe(true);
    const path = (error as { details: { path: string } }).details.path;
    expect((error as Error).message.startsWith(`${path} `)).toBe(true);
    return path;
  }
  throw new Error('the changes were accepted');
}

// The contract's suites check the paths of the common mistakes; these are the paths made from
// more parts (a field under a field, an event, a patch operation's keys).
describe('validateChanges names where a commit is wrong', () => {
  it('accepts a well-formed step commit', () => {
    expect(() =>
      validateChanges({
        runs: [run],
        fences: [{ workId: 'w', owner: 'me', attempts: 1 }],
        enqueue: [
          {
            id: 'w2',
            runId: 'r',
            kind: 'step',
            priority: 50,
            payload: {},
            lease: { owner: 'me', leaseMs: 1000 },
          },
        ],
        dequeue: ['w'],
      }),
    ).not.toThrow();
  });

  it('down to a field of a field, an event and its data', () => {
    const item = { id: 'w', runId: 'r', kind: 'step', priority: 50, payload: {} };
    expect(rejectedPath({ enqueue: [item, { ...item, lease: { owner: 'me', leaseMs: 0 } }] })).toBe(
      'changes.enqueue[1].lease.leaseMs',
    );
    expect(rejectedPath({ enqueue: [{ ...item, lease: { owner: '', leaseMs: 1 } }] })).toBe(
      'changes.enqueue[0].lease.owner',
    );
    const events = [{ type: 'a', data: {} }, { type: 'b' }];
    expect(rejectedPath({ runs: [run, { ...run, id: 's', events }] })).toBe(
      'changes.runs[1].events[1].data',
    );
    expect(rejectedPath({ runs: [{ ...run, at: 'noon' }] })).toBe('changes.runs[0].at');
    expect(rejectedPath({ runs: [{ ...run, expectedRevision: 0 }] })).toBe('changes.runs[0].patch');
  });

  it('down to a patch operation and its keys', () => {
    const patched = (patch: unknown) => rejectedPath({ runs: [{ ...run, patch }] });
    expect(patched({})).toBe('changes.runs[0].patch');
    expect(patched([[['a'], 1], []])).toBe('changes.runs[0].patch[1]');
    expect(patched([[[], 1]])).toBe('changes.runs[0].patch[0][0]');
    expect(patched([[['a', -1], 1]])).toBe('changes.runs[0].patch[0][0][1]');
    expect(patched([[['a'], undefined]])).toBe('changes.runs[0].patch[0][1]');
  });
});
