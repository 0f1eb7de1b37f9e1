/**
 * What a user's test suite for their own workflow looks like: the real definition, fake
 * executors, a clock that only moves when told to, and assertions on routes and review.
 */
import { isEngineError } from '@docflow/engine';
import { createTestEngine, type TestEngine } from '@docflow/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { expenseWorkflow } from '../src/expense-workflow.ts';
import { fakeExecutors, stepOutput, stepStatuses, type TestDocument } from './fake-executors.ts';

const goodInvoice: TestDocument = {
  kind: 'invoice',
  fields: { invoice_number: 'INV-7', total: 30, line_items: [{ amount: 10 }, { amount: 20 }] },
};
const badInvoice: TestDocument = {
  kind: 'invoice',
  fields: { invoice_number: null, total: 99, line_items: [{ amount: 10 }, { amount: -20 }] },
};

let engine: TestEngine | undefined;
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
});

async function start(options: Parameters<typeof fakeExecutors>[0] = {}) {
  const fakes = fakeExecutors(options);
  const started = await createTestEngine({ steps: fakes.steps });
  engine = started;
  return { engine: started, fakes };
}

const text = (doc: TestDocument) => JSON.stringify(doc);

describe('routing', () => {
  it('sends a valid invoice through extraction and the checks, straight to done', async () => {
    const { engine, fakes } = await start();
    const run = await engine.run(expenseWorkflow, { text: text(goodInvoice) });
    expect(run.status).toBe('PROCESSED');
    expect(stepStatuses(run)).toEqual({
      trigger: 'PROCESSED',
      parse: 'PROCESSED',
      classify: 'PROCESSED',
      invoice: 'PROCESSED',
      checks: 'PROCESSED',
      done: 'PROCESSED',
    });
    expect(stepOutput(run, 'checks')).toMatchObject({ allPassed: true });
    expect(fakes.extract.calls.map((c) => c.stepName)).toEqual(['invoice']);
  });

  it('routes a receipt to the receipt extractor and skips the invoice checks', async () => {
    const { engine } = await start();
    const run = await engine.run(expenseWorkflow, { text: text({ kind: 'receipt' }) });
    expect(run.status).toBe('PROCESSED');
    expect(Object.keys(stepStatuses(run))).toEqual([
      'trigger',
      'parse',
      'classify',
      'receipt',
      'done',
    ]);
  });

  it('holds an unknown document for a human, who approves it', async () => {
    const { engine, fakes } = await start();
    const run = await engine.run(expenseWorkflow, { text: text({ kind: 'letter' }) });
    expect(run.status).toBe('NEEDS_REVIEW');
    expect(stepStatuses(run).review).toBe('WAITING');
    expect(fakes.extract.calls).toEqual([]);
    const approved = await engine.workflowRuns.review(run.id, {
      decision: 'approve',
      reviewer: 'clerk@example.com',
    });
    expect(approved.status).toBe('PROCESSED');
    expect(approved.reviewedByUser).toBe('clerk@example.com');
  });
});

describe('validation and human review', () => {
  it('records every failing rule and parks the run for review', async () => {
    const { engine } = await start();
    const run = await engine.run(expenseWorkflow, { text: text(badInvoice) });
    expect(run.status).toBe('NEEDS_REVIEW');
    expect(stepOutput(run, 'checks')).toEqual({
      allPassed: false,
      rules: [
        { name: 'has_number', valid: false, failureReason: 'RULE_FAILED' },
        { name: 'lines_add_up', valid: false, failureReason: 'RULE_FAILED' },
        {
          name: 'positive_lines',
          valid: false,
          validArray: [true, false],
          failureReason: 'RULE_FAILED',
        },
      ],
    });
  });

  it('approves with corrected fields: the extract run keeps both versions and the edits', async () => {
    const { engine } = await start();
    const run = await engine.run(expenseWorkflow, { text: text(badInvoice) });
    const corrected = {
      value: { invoice_number: 'INV-8', total: 30, line_items: [{ amount: 10 }, { amount: 20 }] },
      metadata: {},
    };
    const approved = await engine.workflowRuns.review(run.id, {
      decision: 'approve',
      reviewer: 'clerk@example.com',
      outputs: [{ stepName: 'invoice', output: corrected }],
    });
    expect(approved.status).toBe('PROCESSED');
    const invoice = approved.stepRuns.find((s) => s.step.name === 'invoice');
    expect((invoice?.result as { extractRun?: unknown } | null)?.extractRun).toMatchObject({
      reviewed: true,
      edited: true,
      reviewedOutput: corrected,
      edits: { 'value.total': 30 },
    });
  });

  it('rejects with a note: REJECTED, and a second decision is refused', async () => {
    const { engine } = await start();
    const run = await engine.run(expenseWorkflow, { text: text(badInvoice) });
    const rejected = await engine.workflowRuns.review(run.id, {
      decision: 'reject',
      reviewer: 'clerk@example.com',
      note: 'Not our supplier',
    });
    expect(rejected).toMatchObject({ status: 'REJECTED', rejectionNote: 'Not our supplier' });
    const again = await engine.workflowRuns
      .review(run.id, { decision: 'approve', reviewer: 'clerk@example.com' })
      .catch((error: unknown) => error);
    expect(isEngineError(again, 'INVALID_STATE')).toBe(true);
  });
});

describe('retries on a controllable clock', () => {
  it('retries a busy extractor after 1 s then 2 s of backoff, with no real waiting', async () => {
    const { engine, fakes } = await start({ extractFailures: 2 });
    const wf = await engine.workflows.create({ name: 'expenses', steps: expenseWorkflow });
    await engine.workflows.deploy(wf.id);
    const run = await engine.workflowRuns.create({
      workflow: { id: wf.id },
      file: { text: text(goodInvoice) },
    });
    await engine.idle();
    expect(fakes.extract.calls).toHaveLength(1);
    expect((await engine.workflowRuns.get(run.id)).status).toBe('PROCESSING');

    await engine.advance(999); // not yet due
    await engine.idle();
    expect(fakes.extract.calls).toHaveLength(1);

    await engine.advance(1); // first backoff: 1 s
    await engine.idle();
    expect(fakes.extract.calls).toHaveLength(2);

    await engine.advance(2_000); // second backoff: 2 s
    const done = await engine.workflowRuns.waitFor(run.id, { timeoutMs: 5_000 });
    expect(done.status).toBe('PROCESSED');
    expect(fakes.extract.calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    // One idempotency key across attempts: a real extractor can deduplicate its side effects.
    expect(new Set(fakes.extract.calls.map((c) => c.idempotencyKey)).size).toBe(1);
  });
});
