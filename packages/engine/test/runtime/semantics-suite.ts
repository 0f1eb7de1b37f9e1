import { type EngineEvent, isEngineError, StepError, type WorkflowRun } from '@docflow/engine';
import {
  createTestEngine as createEngineForTests,
  createTestClock,
  fakeStep,
  type TestClock,
  type TestEngine,
  type TestEngineOptions,
} from '@docflow/engine/testing';
import type { StorageAdapter } from '@docflow/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { linear, minimalConfig, steps } from '../helpers.ts';

/** Makes the storage of an engine of the suite (a fresh store, on the engine's clock). */
export type SemanticsStorage = (clock: TestClock) => Promise<StorageAdapter> | StorageAdapter;

/**
 * The engine's semantics (routing, review, failures, retries, cancellation, run inputs, deletion,
 * scheduling), on the storage `makeStorage` gives each engine: memory when omitted. Tests that
 * need a particular adapter (SQLite's writer thread, a memory store with a hook) are in
 * semantics.test.ts alone.
 */
export function describeEngineSemantics(makeStorage?: SemanticsStorage): void {
  /** createTestEngine on the suite's storage, unless a test gives its own. */
  async function createTestEngine(options: TestEngineOptions = {}): Promise<TestEngine> {
    if (makeStorage === undefined || options.storage !== undefined) {
      return createEngineForTests(options);
    }
    const clock = options.clock ?? createTestClock();
    return createEngineForTests({ ...options, clock, storage: await makeStorage(clock) });
  }

  const classes = [
    { id: 'invoice', type: 'invoice', description: 'an invoice' },
    { id: 'receipt', type: 'receipt', description: 'a receipt' },
    { id: 'other', type: 'other', description: 'anything else' },
  ];
  const extract = minimalConfig('EXTRACT') as Record<string, unknown>;

  let engine: TestEngine;
  afterEach(async () => {
    await engine?.stop();
  });

  const statuses = (run: WorkflowRun) =>
    Object.fromEntries(run.stepRuns.map((s) => [s.step.name, s.status]));

  describe('routing', () => {
    it('forks on plain next lists and routes CLASSIFY by classification id', async () => {
      const extractStep = fakeStep('EXTRACT', (input) => ({
        value: { by: input.stepName },
        metadata: {},
      }));
      engine = await createTestEngine({
        steps: [
          fakeStep('PARSE', { chunks: [] }),
          fakeStep('CLASSIFY', { id: 'invoice', type: 'invoice', confidence: 0.9 }),
          extractStep,
        ],
      });
      const run = await engine.run(
        steps([
          { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
          { name: 'parse', type: 'PARSE', next: [{ step: 'classify' }, { step: 'audit' }] },
          {
            name: 'classify',
            type: 'CLASSIFY',
            config: { classifierConfig: { classifications: classes } },
            next: [
              { step: 'invoiceFields', classificationId: 'invoice' },
              { step: 'receiptFields', classificationId: 'receipt' },
            ] as never,
          },
          { name: 'audit', type: 'EXTRACT', config: extract },
          { name: 'invoiceFields', type: 'EXTRACT', config: extract },
          { name: 'receiptFields', type: 'EXTRACT', config: extract },
        ]),
      );
      expect(run.status).toBe('PROCESSED');
      expect(statuses(run)).toEqual({
        trigger: 'PROCESSED',
        parse: 'PROCESSED',
        classify: 'PROCESSED',
        audit: 'PROCESSED',
        invoiceFields: 'PROCESSED',
      });
      expect(extractStep.calls.map((c) => c.stepName).sort()).toEqual(['audit', 'invoiceFields']);
    });

    it('fans a SPLIT out into child files and joins them at COLLECT', async () => {
      const split = fakeStep('SPLIT', async (input, ctx) => {
        const forks = [];
        for (const [i, type] of ['invoice', 'receipt', 'invoice'].entries()) {
          const file = await ctx.files.create({
            name: `part-${i + 1}.txt`,
            data: new TextEncoder().encode(`part ${i + 1}`),
            parentFileId: input.files[0]?.id as string,
            metadata: {
              parentSplit: {
                id: `s${i}`,
                type,
                identifier: `#${i}`,
                startPage: i + 1,
                endPage: i + 1,
              },
            },
          });
          forks.push({ file, route: type });
        }
        return {
          output: { splits: forks.map((f) => ({ fileId: f.file.id, classificationId: f.route })) },
          forks,
        };
      });
      const merge = fakeStep('MERGE_EXTRACT', (input) => ({
        value: { inputs: input.outputs.fields },
        metadata: {},
      }));
      engine = await createTestEngine({
        steps: [
          fakeStep('PARSE', { chunks: [] }),
          split,
          fakeStep('EXTRACT', (input) => ({ value: { file: input.files[0]?.name }, metadata: {} })),
          merge,
        ],
      });
      const run = await engine.run(
        steps([
          { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
          { name: 'parse', type: 'PARSE', next: [{ step: 'split' }] },
          {
            name: 'split',
            type: 'SPLIT',
            config: { splitterConfig: { splitClassifications: classes } },
            next: [
              { step: 'fields', classificationId: 'invoice' },
              { step: 'collect', classificationId: 'receipt' },
            ] as never,
          },
          { name: 'fields', type: 'EXTRACT', config: extract, next: [{ step: 'collect' }] },
          { name: 'collect', type: 'COLLECT', next: [{ step: 'merge' }] },
          { name: 'merge', type: 'MERGE_EXTRACT' },
        ]),
      );
      expect(run.status).toBe('PROCESSED');
      const fields = run.stepRuns.filter((s) => s.step.name === 'fields');
      expect(fields).toHaveLength(2);
      expect(fields.map((f) => f.files[0]?.name).sort()).toEqual(['part-1.txt', 'part-3.txt']);
      expect(fields[0]?.files[0]?.parentFileId).toBe(run.files[0]?.id);
      expect(fields[0]?.files[0]?.metadata.parentSplit?.type).toBe('invoice');
      const collects = run.stepRuns.filter((s) => s.step.name === 'collect');
      const released = collects.find(
        (c) => (c.result as { output?: { fileIds?: string[] } })?.output?.fileIds,
      );
      expect(
        ((released?.result ?? {}) as unknown as { output: { fileIds: string[] } }).output.fileIds,
      ).toHaveLength(3);
      // MERGE_EXTRACT ran once, after the join, with both invoice extractions.
      expect(merge.calls).toHaveLength(1);
      const mergeRun = run.stepRuns.find((s) => s.step.name === 'merge');
      const inputs = (
        (mergeRun?.result ?? {}) as unknown as { output: { value: { inputs: unknown[] } } }
      ).output.value.inputs;
      expect(inputs).toHaveLength(2);
    });

    it('picks the first CONDITIONAL branch that holds, else ELSE', async () => {
      const conditional = () =>
        steps([
          { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
          { name: 'parse', type: 'PARSE', next: [{ step: 'extract1' }] },
          { name: 'extract1', type: 'EXTRACT', config: extract, next: [{ step: 'route' }] },
          {
            name: 'route',
            type: 'CONDITIONAL',
            config: {
              conditions: [
                {
                  id: 'big',
                  type: 'IF',
                  operation: 'GT',
                  leftOperand: '{{extract1.total}}',
                  rightOperand: '1000',
                },
                {
                  id: 'mid',
                  type: 'ELSE_IF',
                  operation: 'FORMULA',
                  leftOperand: 'extract1.total >= 100',
                },
                { id: 'small', type: 'ELSE' },
              ],
            },
            next: [
              { step: 'bigReview', conditionId: 'big' },
              { step: 'midFields', conditionId: 'mid' },
              { step: 'smallFields', conditionId: 'small' },
            ] as never,
          },
          { name: 'bigReview', type: 'EXTRACT', config: extract },
          { name: 'midFields', type: 'EXTRACT', config: extract },
          { name: 'smallFields', type: 'EXTRACT', config: extract },
        ]);
      for (const [amount, branch] of [
        [5000, 'bigReview'],
        [500, 'midFields'],
        [5, 'smallFields'],
      ] as const) {
        engine = await createTestEngine({
          steps: [
            fakeStep('PARSE', { chunks: [] }),
            fakeStep('EXTRACT', { value: { total: amount }, metadata: {} }),
          ],
        });
        const run = await engine.run(conditional());
        expect(run.status).toBe('PROCESSED');
        const route = run.stepRuns.find((s) => s.step.name === 'route');
        // The interface's router result: the branch that matched, null when ELSE was taken.
        const output = (route?.result as { output: { id: string } | null } | undefined)?.output;
        expect(output?.id ?? null).toBe(
          branch === 'bigReview' ? 'big' : branch === 'midFields' ? 'mid' : null,
        );
        expect(run.stepRuns.map((s) => s.step.name)).toContain(branch);
        expect(run.stepRuns).toHaveLength(5);
        await engine.stop();
      }
    });
  });

  describe('file replacement', () => {
    it('continues the path with the files a step returns (FILE_CONVERSION)', async () => {
      const convert = fakeStep('FILE_CONVERSION', async (input, ctx) => {
        const file = await ctx.files.create({
          name: 'converted.pdf',
          data: new TextEncoder().encode('%PDF-1.4 fake'),
          parentFileId: input.files[0]?.id as string,
        });
        return { output: { files: [file] }, files: [file] };
      });
      const seen: string[] = [];
      engine = await createTestEngine({
        steps: [
          convert,
          fakeStep('PARSE', (input) => {
            seen.push(...input.files.map((f) => f.name));
            return { chunks: [] };
          }),
        ],
      });
      const run = await engine.run(
        steps([
          { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse0' }] },
          { name: 'parse0', type: 'PARSE', next: [{ step: 'convert' }] },
          {
            name: 'convert',
            type: 'FILE_CONVERSION',
            config: { failureBehavior: 'EXIT' },
            next: [{ step: 'parse' }],
          },
          { name: 'parse', type: 'PARSE' },
        ]),
      );
      expect(run.status).toBe('PROCESSED');
      expect(seen).toEqual(['text.txt', 'converted.pdf']);
      expect(run.stepRuns.find((s) => s.step.name === 'parse')?.files[0]?.parentFileId).toBe(
        run.files[0]?.id,
      );
    });
  });

  describe('validation and human review', () => {
    const reviewFlow = steps([
      { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
      { name: 'parse', type: 'PARSE', next: [{ step: 'classify' }] },
      {
        name: 'classify',
        type: 'CLASSIFY',
        config: { classifierConfig: { classifications: classes } },
        next: [
          { step: 'extract1', classificationId: 'invoice' },
          { step: 'receiptFields', classificationId: 'receipt' },
        ] as never,
      },
      { name: 'receiptFields', type: 'EXTRACT', config: extract },
      { name: 'extract1', type: 'EXTRACT', config: extract, next: [{ step: 'rules' }] },
      {
        name: 'rules',
        type: 'RULE_VALIDATION',
        config: {
          rules: [
            { name: 'lines add up', formula: 'SUM(extract1.lines.amount) = extract1.total' },
            { name: 'positive', formula: 'extract1.lines.amount > 0' },
          ],
        },
        next: [
          { step: 'review', result: 'fail' },
          { step: 'done', result: 'pass' },
        ] as never,
      },
      { name: 'review', type: 'HUMAN_REVIEW', next: [{ step: 'done' }] },
      { name: 'done', type: 'COLLECT' },
    ]);

    async function engineWith(total: number): Promise<TestEngine> {
      return createTestEngine({
        steps: [
          fakeStep('PARSE', { chunks: [] }),
          fakeStep('CLASSIFY', { id: 'invoice', type: 'invoice', confidence: 0.8 }),
          fakeStep('EXTRACT', {
            value: { total, lines: [{ amount: 60 }, { amount: 40 }] },
            metadata: {},
          }),
        ],
      });
    }

    it('passes valid data straight through with every rule result recorded', async () => {
      engine = await engineWith(100);
      const run = await engine.run(reviewFlow);
      expect(run.status).toBe('PROCESSED');
      const rules = run.stepRuns.find((s) => s.step.name === 'rules');
      expect(((rules?.result ?? {}) as unknown as { output: unknown }).output).toEqual({
        allPassed: true,
        rules: [
          { name: 'lines add up', valid: true },
          { name: 'positive', valid: true, validArray: [true, true] },
        ],
      });
      expect(run.stepRuns.some((s) => s.step.name === 'review')).toBe(false);
    });

    it('holds failing data for review; approve with corrections resumes to PROCESSED', async () => {
      engine = await engineWith(999);
      const events: EngineEvent[] = [];
      engine.on('workflow_run.needs_review', (e) => {
        events.push(e);
      });
      const waiting = await engine.run(reviewFlow);
      expect(waiting.status).toBe('NEEDS_REVIEW');
      expect(events).toHaveLength(1);
      expect(statuses(waiting).review).toBe('WAITING');

      const approved = await engine.workflowRuns.review(waiting.id, {
        decision: 'approve',
        reviewer: 'x@example.com',
      });
      expect(approved.status).toBe('PROCESSED');
      const again = await engine.workflowRuns
        .review(waiting.id, { decision: 'approve', reviewer: 'y@example.com' })
        .catch((e) => e);
      // The run no longer waits, so a second decision is refused and changes nothing.
      expect(isEngineError(again, 'INVALID_STATE')).toBe(true);
      const final = await engine.workflowRuns.get(waiting.id);
      expect(final.status).toBe('PROCESSED');
      expect(final.reviewed).toBe(true);
      expect(final.reviewedByUser).toBe('x@example.com');
      expect(final.reviewedAt).not.toBeNull();
    });

    it('applies corrected extract outputs on approve (initialOutput, reviewedOutput, edits)', async () => {
      engine = await engineWith(999);
      const waiting = await engine.run(reviewFlow);
      const corrected = {
        value: { total: 100, lines: [{ amount: 60 }, { amount: 40 }] },
        metadata: {},
      };
      const approved = await engine.workflowRuns.review(waiting.id, {
        decision: 'approve',
        reviewer: 'ana@example.com',
        outputs: [{ stepName: 'extract1', output: corrected }],
      });
      expect(approved.status).toBe('PROCESSED');
      const extractRun = (
        (approved.stepRuns.find((s) => s.step.name === 'extract1')?.result ?? {}) as unknown as {
          extractRun: Record<string, unknown>;
        }
      ).extractRun;
      expect(extractRun).toMatchObject({
        reviewed: true,
        edited: true,
        output: corrected,
        reviewedOutput: corrected,
        initialOutput: { value: { total: 999 } },
        edits: { 'value.total': 100 },
      });
      expect(approved.reviewedByUser).toBe('ana@example.com');
    });

    it('re-routes from CLASSIFY when a reviewer corrects the classification', async () => {
      engine = await engineWith(999);
      const waiting = await engine.run(reviewFlow);
      const approved = await engine.workflowRuns.review(waiting.id, {
        decision: 'approve',
        reviewer: 'ana@example.com',
        outputs: [
          { stepName: 'classify', output: { id: 'receipt', type: 'receipt', confidence: 1 } },
        ],
      });
      const final = await engine.workflowRuns.waitFor(approved.id);
      expect(final.status).toBe('PROCESSED');
      const byName = statuses(final);
      expect(byName.extract1).toBe('INVALIDATED');
      expect(byName.rules).toBe('INVALIDATED');
      expect(byName.review).toBe('INVALIDATED');
      expect(byName.receiptFields).toBe('PROCESSED');
    });

    it('rejects: REJECTED with the note; reviewing again is an error that changes nothing', async () => {
      engine = await engineWith(999);
      const waiting = await engine.run(reviewFlow);
      const rejected = await engine.workflowRuns.review(waiting.id, {
        decision: 'reject',
        reviewer: 'bo@example.com',
        note: 'Totals are wrong',
      });
      expect(rejected).toMatchObject({
        status: 'REJECTED',
        rejectionNote: 'Totals are wrong',
        reviewedByUser: 'bo@example.com',
      });
      const before = await engine.workflowRuns.get(waiting.id);
      const again = await engine.workflowRuns
        .review(waiting.id, { decision: 'approve', reviewer: 'x@example.com' })
        .catch((e) => e);
      expect(isEngineError(again, 'INVALID_STATE')).toBe(true);
      expect(await engine.workflowRuns.get(waiting.id)).toEqual(before);
      const bad = await engine.workflowRuns
        .review(waiting.id, { decision: 'maybe' as never, reviewer: '' })
        .catch((e) => e);
      expect(isEngineError(bad, 'VALIDATION_FAILED')).toBe(true);
      expect(bad.details.issues.map((i: { path: string }) => i.path)).toEqual([
        'decision',
        'reviewer',
      ]);
    });
  });

  describe('failures, retries, timeouts and cancellation', () => {
    it('retries retryable errors with backoff on the test clock, then succeeds', async () => {
      let attempts = 0;
      const flaky = fakeStep('PARSE', () => {
        attempts++;
        if (attempts < 3) throw new StepError('provider busy', { retryable: true });
        return { chunks: [] };
      });
      engine = await createTestEngine({
        steps: [flaky],
        retry: { initialIntervalMs: 1000, maxAttempts: 3 },
      });
      const wf = await engine.workflows.create({
        name: 'r',
        steps: steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
          { name: 'p', type: 'PARSE' },
        ]),
      });
      const run = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        file: { text: 'x' },
      });
      await engine.idle();
      expect(attempts).toBe(1);
      expect((await engine.workflowRuns.get(run.id)).stepRuns[1]?.status).toBe('PENDING');
      await engine.advance(1000);
      await engine.idle();
      expect(attempts).toBe(2);
      await engine.advance(2000);
      const done = await engine.workflowRuns.waitFor(run.id);
      expect(done.status).toBe('PROCESSED');
      expect(flaky.calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
      // Every attempt carried the same idempotency key.
      expect(new Set(flaky.calls.map((c) => c.idempotencyKey)).size).toBe(1);
    });

    it('fails the run on a non-retryable error and aborts its other in-flight steps', async () => {
      let aborted = false;
      const blocking = fakeStep(
        'EXTRACT',
        (_input, ctx) =>
          new Promise((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              reject(ctx.signal.reason);
            });
          }),
      );
      const broken = fakeStep('CLASSIFY', async () => {
        await new Promise((r) => setTimeout(r, 20));
        throw new StepError('document is corrupt', {
          retryable: false,
          reason: 'FAILED_TO_PROCESS_FILE',
        });
      });
      engine = await createTestEngine({
        steps: [fakeStep('PARSE', { chunks: [] }), blocking, broken],
      });
      const run = await engine.run(
        steps([
          { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
          { name: 'parse', type: 'PARSE', next: [{ step: 'slow' }, { step: 'classify' }] },
          { name: 'slow', type: 'EXTRACT', config: extract },
          {
            name: 'classify',
            type: 'CLASSIFY',
            config: { classifierConfig: { classifications: classes } },
          },
        ]),
      );
      expect(run.status).toBe('FAILED');
      expect(run.failureReason).toBe('FAILED_TO_PROCESS_FILE');
      expect(run.failureMessage).toContain('document is corrupt');
      expect(statuses(run)).toMatchObject({ slow: 'CANCELLED', classify: 'FAILED' });
      await engine.idle();
      expect(aborted).toBe(true);
    });

    it('continues past a failed step whose failureBehavior is CONTINUE', async () => {
      engine = await createTestEngine({
        steps: [
          fakeStep('PARSE', { chunks: [] }),
          fakeStep('EXTERNAL_DATA_VALIDATION', {
            failure: { reason: 'INTERNAL_ERROR', message: 'endpoint down' },
          }),
          fakeStep('EXTRACT', { value: {}, metadata: {} }),
        ],
      });
      const run = await engine.run(
        steps([
          { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
          { name: 'parse', type: 'PARSE', next: [{ step: 'external' }] },
          {
            name: 'external',
            type: 'EXTERNAL_DATA_VALIDATION',
            config: { ...minimalConfig('EXTERNAL_DATA_VALIDATION'), failureBehavior: 'CONTINUE' },
            next: [{ step: 'after' }],
          },
          { name: 'after', type: 'EXTRACT', config: extract },
        ]),
      );
      expect(run.status).toBe('PROCESSED');
      expect(statuses(run)).toMatchObject({ external: 'FAILED', after: 'PROCESSED' });
      expect(run.stepRuns.find((s) => s.step.name === 'external')?.failureMessage).toBe(
        'endpoint down',
      );
    });

    it('aborts an attempt that exceeds timeoutMs, on the test clock', async () => {
      const hanging = fakeStep(
        'PARSE',
        (_input, ctx) =>
          new Promise((_resolve, reject) =>
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
          ),
      );
      engine = await createTestEngine({ steps: [hanging], retry: { maxAttempts: 1 } });
      const wf = await engine.workflows.create({
        name: 't',
        steps: steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
          { name: 'p', type: 'PARSE', timeoutMs: 5000 } as never,
        ]),
      });
      const run = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        file: { text: 'x' },
      });
      while (hanging.calls.length === 0) await new Promise((r) => setTimeout(r, 1));
      await engine.advance(4999);
      expect((await engine.workflowRuns.get(run.id)).status).toBe('PROCESSING');
      await engine.advance(1);
      const done = await engine.workflowRuns.waitFor(run.id);
      expect(done.status).toBe('FAILED');
      expect(done.failureMessage).toContain('timed out after 5000 ms');
    });

    it('cancels: CANCELLING until the executor observed its signal, then CANCELLED', async () => {
      let release!: () => void;
      const observed = new Promise<void>((r) => {
        release = r;
      });
      const slow = fakeStep(
        'PARSE',
        (_input, ctx) =>
          new Promise((_resolve, reject) =>
            ctx.signal.addEventListener('abort', () => {
              void observed.then(() => reject(ctx.signal.reason));
            }),
          ),
      );
      engine = await createTestEngine({ steps: [slow] });
      const wf = await engine.workflows.create({
        name: 'c',
        steps: steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
          { name: 'p', type: 'PARSE' },
        ]),
      });
      const run = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        file: { text: 'x' },
      });
      while (slow.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
      const cancelling = await engine.workflowRuns.cancel(run.id);
      expect(cancelling.status).toBe('CANCELLING');
      release();
      const done = await engine.workflowRuns.waitFor(run.id);
      expect(done.status).toBe('CANCELLED');
      expect(done.stepRuns[1]?.status).toBe('CANCELLED');
      const again = await engine.workflowRuns.cancel(run.id).catch((e) => e);
      expect(isEngineError(again, 'INVALID_STATE')).toBe(true);
    });
    it('gives an executor that reads its signal only after a cancel an aborted one', async () => {
      let cancelled!: () => void;
      const afterCancel = new Promise<void>((r) => {
        cancelled = r;
      });
      const seen: { aborted: boolean; reason: unknown }[] = [];
      const late = fakeStep('PARSE', async (_input, ctx) => {
        await afterCancel;
        seen.push({ aborted: ctx.signal.aborted, reason: ctx.signal.reason });
        ctx.signal.throwIfAborted();
        return {};
      });
      engine = await createTestEngine({ steps: [late] });
      const wf = await engine.workflows.create({
        name: 'c',
        steps: steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
          { name: 'p', type: 'PARSE' },
        ]),
      });
      const run = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        file: { text: 'x' },
      });
      while (late.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
      expect((await engine.workflowRuns.cancel(run.id)).status).toBe('CANCELLING');
      cancelled();
      const done = await engine.workflowRuns.waitFor(run.id);
      expect(done.status).toBe('CANCELLED');
      expect(seen).toHaveLength(1);
      expect(seen[0]?.aborted).toBe(true);
      expect(seen[0]?.reason).toBeInstanceOf(Error);
    });
  });

  describe('run inputs', () => {
    const linearClassify = steps([
      { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
      { name: 'parse', type: 'PARSE', next: [{ step: 'classify' }] },
      {
        name: 'classify',
        type: 'CLASSIFY',
        config: { classifier: { id: 'cl_abc', version: '1.0' } },
        next: [{ step: 'fields', classificationId: 'receipt' }] as never,
      },
      { name: 'fields', type: 'EXTRACT', config: extract },
    ]);

    it('uses output overrides instead of running the processor', async () => {
      const classify = fakeStep('CLASSIFY', { id: 'invoice', type: 'invoice', confidence: 1 });
      engine = await createTestEngine({
        steps: [
          fakeStep('PARSE', { chunks: [] }),
          classify,
          fakeStep('EXTRACT', { value: {}, metadata: {} }),
        ],
      });
      const classifier = await engine.classifiers.create({
        name: 'docs',
        config: { classifications: classes },
      });
      await engine.classifiers.publish(classifier.id, { releaseType: 'major' });
      const definition = JSON.parse(
        JSON.stringify(linearClassify).replaceAll('cl_abc', classifier.id),
      );
      const wf = await engine.workflows.create({ name: 'o', steps: definition });
      const run = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        file: { text: 'x' },
        outputs: [
          { processorId: classifier.id, output: { id: 'receipt', type: 'receipt', confidence: 1 } },
        ],
      });
      const done = await engine.workflowRuns.waitFor(run.id);
      expect(classify.calls).toHaveLength(0);
      expect(statuses(done).fields).toBe('PROCESSED');
    });

    it('stores a large output in the blob store, passes it on and returns it; a small one stays inline', async () => {
      const big = { text: 'x'.repeat(2000) };
      const given: unknown[] = [];
      engine = await createTestEngine({
        steps: [
          fakeStep('PARSE', (input) => (input.stepName === 'p1' ? big : { small: true })),
          fakeStep('EXTRACT', (input) => {
            given.push(input.outputs);
            return { ok: true };
          }),
        ],
      });
      const run = await engine.run(
        steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p1' }] },
          { name: 'p1', type: 'PARSE', next: [{ step: 'p2' }] },
          { name: 'p2', type: 'PARSE', next: [{ step: 'x' }] },
          { name: 'x', type: 'EXTRACT', config: extract },
        ]),
      );
      expect(run.status).toBe('PROCESSED');
      expect(given).toEqual([{ t: null, p1: big, p2: { small: true } }]);
      const byName = (name: string) => run.stepRuns.find((s) => s.step.name === name);
      expect(byName('p1')?.result).toMatchObject({ parseRun: { output: big } });
      const stored = (await engine.storage.getRun(run.id))?.snapshot as unknown as {
        stepRuns: { stepName: string; output?: unknown; outputRef?: string }[];
      };
      const p1 = stored.stepRuns.find((s) => s.stepName === 'p1');
      expect(p1?.output).toBeUndefined();
      expect(p1?.outputRef).toBe(`output/${p1 && (p1 as { id?: string }).id}`);
      expect(stored.stepRuns.find((s) => s.stepName === 'p2')?.output).toEqual({ small: true });
    });

    it('passes secrets to executors and never returns or logs them', async () => {
      const seen: Record<string, string>[] = [];
      engine = await createTestEngine({
        steps: [
          fakeStep('PARSE', (_i, ctx) => {
            seen.push({ ...ctx.secrets });
            return { chunks: [] };
          }),
        ],
      });
      const run = await engine.run(
        steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
          { name: 'p', type: 'PARSE' },
        ]),
        {
          secrets: { apiKey: 'sk-very-secret' },
        },
      );
      expect(seen).toEqual([{ apiKey: 'sk-very-secret' }]);
      expect(JSON.stringify(run)).not.toContain('sk-very-secret');
      const events = await engine.storage.listRunEvents(run.id);
      expect(JSON.stringify(events)).not.toContain('sk-very-secret');
      const record = await engine.storage.getRun(run.id);
      expect(JSON.stringify(record)).not.toContain('sk-very-secret');
    });

    it('runs packages of 2 to 50 files and rejects duplicates and overrides', async () => {
      const parse = fakeStep('PARSE', (input) => ({ files: input.files.map((f) => f.name) }));
      engine = await createTestEngine({ steps: [parse] });
      const wf = await engine.workflows.create({
        name: 'p',
        steps: steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
          { name: 'p', type: 'PARSE' },
        ]),
      });
      const files = await Promise.all(
        ['a.txt', 'b.txt', 'c.txt'].map((name) => engine.files.upload({ name, data: name })),
      );
      const run = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        package: { files: files.map((f) => ({ id: f.id })) },
      });
      const done = await engine.workflowRuns.waitFor(run.id);
      expect(done.files.map((f) => f.name)).toEqual(['a.txt', 'b.txt', 'c.txt']);
      expect(
        ((done.stepRuns[1]?.result ?? {}) as { parseRun: { output: unknown } }).parseRun.output,
      ).toEqual({ files: ['a.txt', 'b.txt', 'c.txt'] });
      const dup = await engine.workflowRuns
        .create({
          workflow: { id: wf.id },
          package: { files: [{ id: files[0]?.id as string }, { id: files[0]?.id as string }] },
        })
        .catch((e) => e);
      expect(dup.details.issues[0]).toMatchObject({
        code: 'DUPLICATE_PACKAGE_FILE',
        path: 'package.files[1]',
      });
      const one = await engine.workflowRuns
        .create({ workflow: { id: wf.id }, package: { files: [{ id: 'x' }] } })
        .catch((e) => e);
      expect(one.details.issues[0].path).toBe('package.files');
      const overrides = await engine.workflowRuns
        .create({
          workflow: { id: wf.id },
          package: { files: files.slice(0, 2).map((f) => ({ id: f.id })) },
          outputs: [{ processorId: 'ex_1', output: {} }],
        })
        .catch((e) => e);
      expect(overrides.details.issues[0].path).toBe('outputs');
      const tooBig = await engine.workflowRuns
        .create({
          workflow: { id: wf.id },
          file: { text: 'x' },
          metadata: { blob: 'x'.repeat(11_000) },
        })
        .catch((e) => e);
      expect(tooBig.details.issues[0]).toMatchObject({
        code: 'METADATA_TOO_LARGE',
        path: 'metadata',
      });
      expect((await engine.workflowRuns.list()).data).toHaveLength(1);
    });

    it('creates batches sharing a batchId at priority 90, merges metadata, deletes runs', async () => {
      engine = await createTestEngine({ steps: [fakeStep('PARSE', { chunks: [] })] });
      const wf = await engine.workflows.create({
        name: 'b',
        steps: steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
          { name: 'p', type: 'PARSE' },
        ]),
      });
      const batch = await engine.workflowRuns.createBatch({
        workflow: { id: wf.id },
        inputs: [
          { file: { text: 'a' } },
          { file: { text: 'b' }, metadata: { n: 2 } },
          { file: { text: 'c' } },
        ],
      });
      expect(batch.runs).toHaveLength(3);
      expect(new Set(batch.runs.map((r) => r.batchId))).toEqual(new Set([batch.batchId]));
      expect(batch.runs.every((r) => r.priority === 90)).toBe(true);
      const listed = await engine.workflowRuns.list({ batchId: batch.batchId, maxPageSize: 2 });
      expect(listed.data).toHaveLength(2);
      expect(listed.nextPageToken).toBeDefined();
      const id = batch.runs[1]?.id as string;
      await engine.workflowRuns.waitFor(id);
      const updated = await engine.workflowRuns.update(id, { metadata: { tag: 'x' } });
      expect(updated.metadata).toEqual({ n: 2, tag: 'x' });
      await engine.workflowRuns.delete(id);
      expect(isEngineError(await engine.workflowRuns.get(id).catch((e) => e), 'NOT_FOUND')).toBe(
        true,
      );
      const empty = await engine.workflowRuns
        .createBatch({ workflow: { id: wf.id }, inputs: [] })
        .catch((e) => e);
      expect(empty.details.issues[0].path).toBe('inputs');
    });
  });

  describe('deleting a run', () => {
    it('leaves nothing queued when the run of an executing step is deleted', async () => {
      let entered!: () => void;
      const inside = new Promise<void>((r) => {
        entered = r;
      });
      const errors: unknown[] = [];
      engine = await createTestEngine({
        steps: [
          fakeStep('PARSE', (_input, ctx) => {
            entered();
            return new Promise((_resolve, reject) =>
              ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
            );
          }),
        ],
        onError: (error) => errors.push(error),
      });
      const wf = await engine.workflows.create({ name: 'd', steps: linear('PARSE') });
      await engine.workflows.deploy(wf.id);
      const run = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        file: { text: 'x' },
      });
      await inside;
      await engine.workflowRuns.delete(run.id);
      // The executor was aborted; its outcome finds no run to store into.
      while (errors.length === 0) await new Promise((r) => setImmediate(r));
      expect(isEngineError(errors[0], 'NOT_FOUND'), String(errors[0])).toBe(true);
      expect(await engine.storage.listWork()).toEqual([]);
    });
  });

  describe('scheduling (any storage)', () => {
    it('lets an urgent run overtake a queued batch: it waits only for the steps already running', async () => {
      const order: string[] = [];
      // The steps that start before the urgent run exists wait for it: on any store, however
      // long creating the batch takes, what runs before the urgent run is only what was running.
      let open = (): void => undefined;
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      const parse = fakeStep('PARSE', async (input) => {
        // The order steps start in.
        order.push(input.metadata.label as string);
        await gate;
        await new Promise((r) => setTimeout(r, 2));
        return { chunks: [] };
      });
      engine = await createTestEngine({ steps: [parse], scheduling: { concurrency: 2 } });
      const wf = await engine.workflows.create({
        name: 's',
        steps: steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
          { name: 'p', type: 'PARSE' },
        ]),
      });
      await engine.workflows.deploy(wf.id);
      await engine.workflowRuns.createBatch({
        workflow: { id: wf.id },
        inputs: Array.from({ length: 30 }, (_, i) => ({
          file: { text: `b${i}` },
          metadata: { label: `batch${i}` },
        })),
      });
      const urgent = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        file: { text: 'u' },
        priority: 5,
        metadata: { label: 'urgent' },
      });
      open();
      await engine.workflowRuns.waitFor(urgent.id);
      await engine.idle();
      expect(order).toHaveLength(31);
      // Only the two steps that were running started first (and the step claimed together with
      // it, which may start a moment before it on a database: each reads its run first).
      expect(order.indexOf('urgent')).toBeLessThanOrEqual(3);
      const batchOrder = order.filter((l) => l !== 'urgent').map((l) => Number(l.slice(5)));
      if (makeStorage === undefined) {
        // FIFO within the batch's priority. In memory the claimed steps start in claim order; on
        // a database two claimed together each read their run first and may start in either
        // order (the order of claims is the storage contract's, tested there).
        expect(batchOrder).toEqual([...batchOrder].sort((a, b) => a - b));
      } else {
        expect([...batchOrder].sort((a, b) => a - b)).toEqual(
          Array.from({ length: 30 }, (_, k) => k),
        );
      }
    });

    it('gives the slot of a finishing step to the next step of its run when nothing else waits', async () => {
      // One slot, always taken: every next step can only start through the finishing step's slot.
      engine = await createTestEngine({
        steps: [
          fakeStep('PARSE', { chunks: [] }),
          fakeStep('EXTRACT', { value: {}, metadata: {} }),
        ],
        scheduling: { concurrency: 1 },
      });
      const run = await engine.run(
        steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
          { name: 'p', type: 'PARSE', next: [{ step: 'e1' }] },
          { name: 'e1', type: 'EXTRACT', config: extract, next: [{ step: 'e2' }] },
          { name: 'e2', type: 'EXTRACT', config: extract },
        ]),
      );
      expect(run.status).toBe('PROCESSED');
      const events = await engine.storage.listRunEvents(run.id);
      const revisionOf = (type: string, stepRunId: string) =>
        events.find((e) => e.type === type && e.data.stepRunId === stepRunId)?.revision;
      for (const name of ['p', 'e1', 'e2']) {
        const sr = run.stepRuns.find((s) => s.step.name === name);
        // Started in the very commit that created it: no queue round trip, no claim.
        expect(revisionOf('step.start', sr?.id ?? '')).toBe(
          revisionOf('step.created', sr?.id ?? ''),
        );
      }
      expect(await engine.storage.listWork()).toEqual([]);
    });

    it('emits the interface events to in-process listeners', async () => {
      engine = await createTestEngine({ steps: [fakeStep('PARSE', { chunks: [] })] });
      const seen: string[] = [];
      engine.on('*', (e) => {
        seen.push(e.eventType);
      });
      await engine.run(
        steps([
          { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
          { name: 'p', type: 'PARSE' },
        ]),
      );
      expect(seen).toContain('workflow.created');
      expect(seen).toContain('workflow.deployed');
      expect(seen.filter((t) => t === 'workflow_run.step_run.processed')).toHaveLength(2);
      expect(seen.at(-1)).toBe('workflow_run.completed');
    });
  });
}
