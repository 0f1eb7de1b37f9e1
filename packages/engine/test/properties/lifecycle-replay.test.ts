import { type StepDefinition, StepError, type WorkflowRun } from '@docflow/engine';
import { createTestEngine, fakeStep, type TestEngine } from '@docflow/engine/testing';
import type { RunEventRecord } from '@docflow/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { minimalConfig } from '../helpers.ts';
import { lifecycleViolations, replayProblems } from './lifecycle-replay.ts';

const classes = [
  { id: 'invoice', type: 'invoice', description: 'an invoice' },
  { id: 'receipt', type: 'receipt', description: 'a receipt' },
  { id: 'other', type: 'other', description: 'anything else' },
];
const extract = minimalConfig('EXTRACT') as Record<string, unknown>;
const defs = (list: readonly Record<string, unknown>[]) => list as unknown as StepDefinition[];

const reviewFlow = defs([
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE', next: [{ step: 'classify' }] },
  {
    name: 'classify',
    type: 'CLASSIFY',
    config: { classifierConfig: { classifications: classes } },
    next: [
      { step: 'extract1', classificationId: 'invoice' },
      { step: 'receiptFields', classificationId: 'receipt' },
    ],
  },
  { name: 'receiptFields', type: 'EXTRACT', config: extract },
  { name: 'extract1', type: 'EXTRACT', config: extract, next: [{ step: 'rules' }] },
  {
    name: 'rules',
    type: 'RULE_VALIDATION',
    config: {
      rules: [{ name: 'adds up', formula: 'SUM(extract1.lines.amount) = extract1.total' }],
    },
    next: [
      { step: 'review', result: 'fail' },
      { step: 'done', result: 'pass' },
    ],
  },
  { name: 'review', type: 'HUMAN_REVIEW', next: [{ step: 'done' }] },
  { name: 'done', type: 'COLLECT' },
]);

const reviewSteps = () => [
  fakeStep('PARSE', { chunks: [] }),
  fakeStep('CLASSIFY', { id: 'invoice', type: 'invoice', confidence: 0.8 }),
  fakeStep('EXTRACT', { value: { total: 999, lines: [{ amount: 60 }, { amount: 40 }] } }),
];

const hanging = (type: 'PARSE' | 'EXTRACT') =>
  fakeStep(
    type,
    (_input, ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
      ),
  );

/** Event types (`run.start`, `step.retry`, …) seen across the scenarios below. */
const seen = new Set<string>();
let engine: TestEngine | undefined;

afterEach(async () => {
  await engine?.stop();
  engine = undefined;
});

async function expectLegal(run: WorkflowRun): Promise<void> {
  const storage = (engine as TestEngine).storage;
  expect(await replayProblems(storage, run.id)).toEqual([]);
  for (const e of await storage.listRunEvents(run.id)) seen.add(e.type);
}

async function start(test: TestEngine, steps: StepDefinition[]): Promise<string> {
  const wf = await test.workflows.create({ name: 'lifecycle', steps });
  await test.workflows.deploy(wf.id);
  const run = await test.workflowRuns.create({ workflow: { id: wf.id }, file: { text: 'x' } });
  return run.id;
}

describe('lifecycle replay checker', () => {
  const event = (seq: number, type: string, data: Record<string, string>): RunEventRecord => ({
    runId: 'r',
    seq,
    type,
    data,
    revision: seq,
    at: '2026-01-01T00:00:00.000Z',
  });

  it('accepts a legal log', () => {
    expect(
      lifecycleViolations([
        event(1, 'run.created', { status: 'PENDING' }),
        event(2, 'run.start', { status: 'PROCESSING' }),
        event(3, 'step.created', { stepRunId: 's', step: 'parse' }),
        event(4, 'step.start', { stepRunId: 's', status: 'PROCESSING' }),
        event(5, 'step.retry', { stepRunId: 's', status: 'PENDING' }),
        event(6, 'step.start', { stepRunId: 's', status: 'PROCESSING' }),
        event(7, 'step.complete', { stepRunId: 's', status: 'PROCESSED' }),
        event(8, 'run.metadata_updated', {}),
        event(9, 'run.complete', { status: 'PROCESSED' }),
      ]),
    ).toEqual([]);
  });

  it('flags transitions the machines do not allow and statuses they would not reach', () => {
    const problems = lifecycleViolations([
      event(1, 'run.created', { status: 'PENDING' }),
      event(2, 'run.complete', { status: 'PROCESSED' }),
      event(3, 'step.created', { stepRunId: 's', step: 'parse' }),
      event(4, 'step.complete', { stepRunId: 's', status: 'FAILED' }),
      event(5, 'step.start', { stepRunId: 's', status: 'PROCESSING' }),
      event(6, 'step.start', { stepRunId: 'unknown', status: 'PROCESSING' }),
    ]);
    expect(problems).toEqual([
      '#2 run.complete: PENDING --complete--> is not a transition',
      '#4 step.complete: machine says PROCESSED, log says FAILED',
      '#5 step.start: FAILED --start--> is not a transition',
      '#6 step.start: step run unknown moved before step.created',
    ]);
  });
});

describe('every transition the engine performs is legal per the xstate lifecycles', () => {
  it('retries, then succeeds', async () => {
    let attempts = 0;
    engine = await createTestEngine({
      retry: { initialIntervalMs: 1000, maxAttempts: 3 },
      steps: [
        fakeStep('PARSE', () => {
          attempts++;
          if (attempts < 2) throw new StepError('busy', { retryable: true });
          return { chunks: [] };
        }),
      ],
    });
    const id = await start(
      engine,
      defs([
        { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
        { name: 'p', type: 'PARSE' },
      ]),
    );
    await engine.idle();
    await engine.advance(1000);
    const run = await engine.workflowRuns.waitFor(id);
    expect(run.status).toBe('PROCESSED');
    await expectLegal(run);
  });

  it('fails, cancelling the other in-flight step; continues past a CONTINUE failure', async () => {
    engine = await createTestEngine({
      steps: [
        fakeStep('PARSE', { chunks: [] }),
        hanging('EXTRACT'),
        fakeStep('CLASSIFY', async () => {
          await new Promise((r) => setTimeout(r, 20));
          throw new StepError('corrupt', { retryable: false, reason: 'FAILED_TO_PROCESS_FILE' });
        }),
        fakeStep('EXTERNAL_DATA_VALIDATION', {
          failure: { reason: 'INTERNAL_ERROR', message: 'down' },
        }),
      ],
    });
    const run = await engine.run(
      defs([
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        {
          name: 'parse',
          type: 'PARSE',
          next: [{ step: 'external' }, { step: 'slow' }, { step: 'classify' }],
        },
        {
          name: 'external',
          type: 'EXTERNAL_DATA_VALIDATION',
          config: { ...minimalConfig('EXTERNAL_DATA_VALIDATION'), failureBehavior: 'CONTINUE' },
        },
        { name: 'slow', type: 'EXTRACT', config: extract },
        {
          name: 'classify',
          type: 'CLASSIFY',
          config: { classifierConfig: { classifications: classes } },
        },
      ]),
    );
    expect(run.status).toBe('FAILED');
    await engine.idle();
    await expectLegal(run);
  });

  it('times out an attempt', async () => {
    engine = await createTestEngine({ steps: [hanging('PARSE')], retry: { maxAttempts: 1 } });
    const id = await start(
      engine,
      defs([
        { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
        { name: 'p', type: 'PARSE', timeoutMs: 5000 },
      ]),
    );
    while ((await engine.workflowRuns.get(id)).stepRuns[1]?.status !== 'PROCESSING') {
      await new Promise((r) => setTimeout(r, 5));
    }
    await engine.advance(5000);
    const run = await engine.workflowRuns.waitFor(id);
    expect(run.status).toBe('FAILED');
    await expectLegal(run);
  });

  it('cancels through CANCELLING', async () => {
    engine = await createTestEngine({ steps: [hanging('PARSE')] });
    const id = await start(
      engine,
      defs([
        { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
        { name: 'p', type: 'PARSE' },
      ]),
    );
    while ((await engine.workflowRuns.get(id)).stepRuns[1]?.status !== 'PROCESSING') {
      await new Promise((r) => setTimeout(r, 5));
    }
    await engine.workflowRuns.cancel(id);
    const run = await engine.workflowRuns.waitFor(id);
    expect(run.status).toBe('CANCELLED');
    await expectLegal(run);
  });

  it('reviews: approve, reject, and a corrected classification that invalidates', async () => {
    engine = await createTestEngine({ steps: reviewSteps() });
    for (const decision of ['approve', 'reject', 'reclassify'] as const) {
      const waiting = await engine.run(reviewFlow);
      expect(waiting.status).toBe('NEEDS_REVIEW');
      await engine.workflowRuns.review(
        waiting.id,
        decision === 'reject'
          ? { decision: 'reject', reviewer: 'r@example.com', note: 'no' }
          : {
              decision: 'approve',
              reviewer: 'r@example.com',
              ...(decision === 'reclassify'
                ? {
                    outputs: [
                      {
                        stepName: 'classify',
                        output: { id: 'receipt', type: 'receipt', confidence: 1 },
                      },
                    ],
                  }
                : {}),
            },
      );
      const run = await engine.workflowRuns.waitFor(waiting.id);
      expect(run.status).toBe(decision === 'reject' ? 'REJECTED' : 'PROCESSED');
      await expectLegal(run);
    }
  });

  it('between them, the scenarios above used every event of both machines', () => {
    const expected = [
      ...['created', 'start', 'await_review', 'approve', 'reject', 'complete', 'fail', 'cancel'],
      'settled',
    ].map((e) => `run.${e}`);
    const steps = ['created', 'start', 'wait', 'complete', 'fail', 'retry', 'cancel', 'invalidate'];
    for (const type of [...expected, ...steps.map((e) => `step.${e}`)]) {
      expect(seen.has(type), type).toBe(true);
    }
  });
});
