/**
 * The accounting of executions that reached no outcome (`runtime/lost-executions.ts`): deaths
 * and takeovers from live processes are bounded each, and the message says which it was. The
 * two sides of a takeover on PostgreSQL are in shared-store.test.ts; deaths of real processes in
 * crash-loop.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  countLostExecution,
  countTakenOver,
  diedExecutions,
  type ExecutionRecord,
} from '../../src/runtime/lost-executions.ts';

describe('executions that reached no outcome', () => {
  it('a stop costs nothing; the third death gives up, saying the process died', () => {
    const record: ExecutionRecord = { interrupted: true };
    expect(countLostExecution(record, 'Step p')).toBeUndefined();
    expect(record).toEqual({});
    expect(countLostExecution(record, 'Step p')).toBeUndefined();
    expect(countLostExecution(record, 'Step p')).toBeUndefined();
    expect(countLostExecution(record, 'Step p')).toMatch(
      /^Step p was executing when its process died 3 times/,
    );
  });

  it('a takeover reported by its live process is not a death, in either order of the two writes', () => {
    const reportedAfter: ExecutionRecord = {};
    const reportedBefore: ExecutionRecord = {};
    for (let i = 0; i < 2; i++) {
      expect(countLostExecution(reportedAfter, 'Step p')).toBeUndefined();
      countTakenOver(reportedAfter);
      countTakenOver(reportedBefore);
      expect(countLostExecution(reportedBefore, 'Step p')).toBeUndefined();
    }
    for (const record of [reportedAfter, reportedBefore]) {
      expect(record).toEqual({ lost: 2, takenOver: 2 });
      expect(diedExecutions(record)).toBe(0);
    }
    // Two deaths after two takeovers: still running again.
    expect(countLostExecution(reportedAfter, 'Step p')).toBeUndefined();
    expect(countLostExecution(reportedAfter, 'Step p')).toBeUndefined();
    expect(diedExecutions(reportedAfter)).toBe(2);
  });

  it('the third takeover from a live process gives up, saying the lease was not renewed', () => {
    const record: ExecutionRecord = {};
    for (let i = 0; i < 3; i++) {
      expect(countLostExecution(record, 'Step p')).toBeUndefined();
      countTakenOver(record);
    }
    const message = countLostExecution(record, 'Step p');
    expect(message).toMatch(
      /^Step p was taken over 3 times from a process that was still running it/,
    );
    expect(message).toMatch(/scheduling\.leaseMs/);
    expect(message).not.toMatch(/died/);
  });
});
