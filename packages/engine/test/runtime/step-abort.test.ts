import { describe, expect, it } from 'vitest';
import { ExecutionContext } from '../../src/runtime/execution-context.ts';
import { StepAbort } from '../../src/runtime/step-abort.ts';

describe('StepAbort', () => {
  it('makes no signal until asked, and then one that follows later aborts', () => {
    const abort = new StepAbort();
    expect(abort.aborted).toBe(false);
    expect(abort.reason).toBeUndefined();
    const signal = abort.signal;
    expect(abort.signal).toBe(signal);
    let heard: unknown;
    signal.addEventListener('abort', () => {
      heard = signal.reason;
    });
    const reason = new Error('cancelled');
    abort.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(heard).toBe(reason);
    expect(abort.reason).toBe(reason);
  });

  it('gives a signal asked for after the abort already aborted, with the reason', () => {
    const abort = new StepAbort();
    const reason = new Error('stopped');
    abort.abort(reason);
    expect(abort.aborted).toBe(true);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe(reason);
    expect(() => abort.signal.throwIfAborted()).toThrow(reason);
  });

  it('keeps the first reason, and without one gives an AbortError as AbortController does', () => {
    const abort = new StepAbort();
    abort.abort();
    abort.abort(new Error('later'));
    const reason = abort.reason as DOMException;
    expect(reason.name).toBe('AbortError');
    const controller = new AbortController();
    controller.abort();
    expect(reason.name).toBe((controller.signal.reason as DOMException).name);
    expect(abort.signal.reason).toBe(reason);
  });
});

describe('ExecutionContext', () => {
  const fields = {
    idempotencyKey: 'workflow_step_run_1',
    runId: 'workflow_run_1',
    stepRunId: 'workflow_step_run_1',
    attempt: 2,
    secrets: { key: 'v' },
    now: () => new Date(0),
    files: {
      read: async () => new Uint8Array(),
      create: async () => {
        throw new Error('not here');
      },
    },
  };

  it('reads its signal from the abort, and destructures like a plain object', () => {
    const abort = new StepAbort();
    const context = new ExecutionContext(abort, fields);
    const { signal, attempt, runId } = context;
    expect(signal).toBe(abort.signal);
    expect([attempt, runId]).toEqual([2, 'workflow_run_1']);
    abort.abort(new Error('x'));
    expect(context.signal.aborted).toBe(true);
  });

  it('has resolveProcessor only when given one', () => {
    expect('resolveProcessor' in new ExecutionContext(new StepAbort(), fields)).toBe(false);
    const resolveProcessor = async () => ({});
    const context = new ExecutionContext(new StepAbort(), { ...fields, resolveProcessor });
    expect(context.resolveProcessor).toBe(resolveProcessor);
  });
});
