import { Writable } from 'node:stream';
import {
  TELEMETRY_ATTRIBUTES as A,
  StepError,
  TRACER_NAME,
  type WorkflowRun,
} from '@docflow/engine';
import { createTestEngine, fakeStep, type TestEngine } from '@docflow/engine/testing';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { steps } from '../helpers.ts';

const SECRET = 'sk-do-not-log-me';
const METADATA = 'customer-42-private';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  // What a host does: an SDK and a context manager, registered globally.
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

let engine: TestEngine | undefined;
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
  exporter.reset();
});

/**
 * TRIGGER → PARSE (busy once, then done; it calls an instrumented "provider" inside) → EXTRACT
 * (fails) on a run with metadata and secrets: the run fails.
 */
async function failingRun(options: { logger?: pino.Logger } = {}): Promise<WorkflowRun> {
  let parses = 0;
  engine = await createTestEngine({
    ...options,
    retry: { initialIntervalMs: 1000, maxAttempts: 3 },
    steps: [
      fakeStep('PARSE', () =>
        trace.getTracer('provider').startActiveSpan('provider call', (span) => {
          span.end();
          parses++;
          if (parses === 1) throw new StepError('provider busy', { retryable: true });
          return { chunks: [] };
        }),
      ),
      fakeStep('EXTRACT', () => ({
        failure: { reason: 'EXTRACTION_FAILED', message: 'no total found' },
      })),
    ],
  });
  const wf = await engine.workflows.create({
    name: 'intake',
    steps: steps([
      { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
      { name: 'parse', type: 'PARSE', next: [{ step: 'fields' }] },
      {
        name: 'fields',
        type: 'EXTRACT',
        config: {
          extractorConfig: {
            schema: { type: 'object', properties: { total: { type: 'number' } } },
          },
        },
      },
    ]),
  });
  await engine.workflows.deploy(wf.id);
  const created = await trace.getTracer('host').startActiveSpan('POST /intake', async (span) => {
    try {
      return await (engine as TestEngine).workflowRuns.create({
        workflow: { id: wf.id },
        file: { text: 'an invoice' },
        metadata: { customer: METADATA },
        secrets: { apiKey: SECRET },
      });
    } finally {
      span.end();
    }
  });
  await engine.idle();
  await engine.advance(1000);
  return engine.workflowRuns.waitFor(created.id, { timeoutMs: 10_000 });
}

const named = (spans: readonly ReadableSpan[], name: string) =>
  spans.filter((s) => s.name === name);
const one = (spans: readonly ReadableSpan[], name: string): ReadableSpan => {
  const found = named(spans, name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('OpenTelemetry spans', () => {
  it('traces a failing multi-step run: a run span, a span per step, attempts as events', async () => {
    const run = await failingRun();
    expect(run.status).toBe('FAILED');
    const spans = exporter.getFinishedSpans();

    const request = one(spans, 'POST /intake');
    const runSpan = one(spans, 'docflow.workflow_run');
    expect(runSpan.instrumentationScope.name).toBe(TRACER_NAME);
    // The run belongs to the trace of the request that created it.
    expect(runSpan.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(parentOf(runSpan)).toBe(request.spanContext().spanId);
    expect(runSpan.attributes).toMatchObject({
      [A.WORKFLOW_RUN_ID]: run.id,
      [A.WORKFLOW_ID]: run.workflow.id,
      [A.WORKFLOW_NAME]: 'intake',
      [A.WORKFLOW_VERSION]: '1',
      [A.WORKFLOW_RUN_STATUS]: 'FAILED',
      [A.WORKFLOW_RUN_FAILURE_REASON]: 'EXTRACTION_FAILED',
    });
    expect(runSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(runSpan.status.message).toContain('no total found');

    const stepSpans = ['trigger', 'parse', 'fields'].map((name) =>
      one(spans, `docflow.step_run ${name}`),
    );
    for (const [i, span] of stepSpans.entries()) {
      expect(parentOf(span)).toBe(runSpan.spanContext().spanId);
      expect(span.attributes[A.STEP_RUN_ID]).toBe(run.stepRuns[i]?.id);
      expect(span.attributes[A.WORKFLOW_RUN_ID]).toBe(run.id);
    }
    const [trigger, parse, fields] = stepSpans as [ReadableSpan, ReadableSpan, ReadableSpan];
    expect(trigger.attributes).toMatchObject({
      [A.STEP_TYPE]: 'TRIGGER',
      [A.STEP_RUN_STATUS]: 'PROCESSED',
    });
    expect(parse.attributes).toMatchObject({
      [A.STEP_NAME]: 'parse',
      [A.STEP_TYPE]: 'PARSE',
      [A.STEP_RUN_STATUS]: 'PROCESSED',
      [A.STEP_RUN_ATTEMPTS]: 2,
    });
    expect(parse.status.code).toBe(SpanStatusCode.UNSET);
    expect(parse.events.map((e) => [e.name, e.attributes?.[A.ATTEMPT]])).toEqual([
      ['attempt.started', 1],
      ['attempt.failed', 1],
      ['attempt.started', 2],
    ]);
    expect(parse.events[1]?.attributes?.[A.ATTEMPT_ERROR]).toBe('provider busy');
    expect(fields.attributes).toMatchObject({
      [A.STEP_TYPE]: 'EXTRACT',
      [A.STEP_RUN_STATUS]: 'FAILED',
      [A.STEP_RUN_FAILURE_REASON]: 'EXTRACTION_FAILED',
    });
    expect(fields.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no total found' });

    // The executor ran with its step's span active: the provider's spans nest under it.
    const calls = named(spans, 'provider call');
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(parentOf(call)).toBe(parse.spanContext().spanId);

    // Ids, types, statuses and reasons; never metadata or secrets.
    const everything = JSON.stringify(spans.map((s) => [s.attributes, s.events, s.status, s.name]));
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(METADATA);
  });

  it('ends a run span when the run waits for review, and opens another when it resumes', async () => {
    engine = await createTestEngine({ steps: [fakeStep('PARSE', { chunks: [] })] });
    const waiting = await engine.run(
      steps([
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'review' }] },
        { name: 'review', type: 'HUMAN_REVIEW' },
      ]),
    );
    expect(waiting.status).toBe('NEEDS_REVIEW');
    const first = one(exporter.getFinishedSpans(), 'docflow.workflow_run');
    expect(first.attributes[A.WORKFLOW_RUN_STATUS]).toBe('NEEDS_REVIEW');
    expect(one(exporter.getFinishedSpans(), 'docflow.step_run review').attributes).toMatchObject({
      [A.STEP_RUN_STATUS]: 'WAITING',
    });
    exporter.reset();
    await engine.workflowRuns.review(waiting.id, {
      decision: 'approve',
      reviewer: 'a@example.com',
    });
    await engine.workflowRuns.waitFor(waiting.id);
    const resumed = one(exporter.getFinishedSpans(), 'docflow.workflow_run');
    expect(resumed.attributes).toMatchObject({
      [A.WORKFLOW_RUN_ID]: waiting.id,
      [A.WORKFLOW_RUN_STATUS]: 'PROCESSED',
    });
    expect(resumed.spanContext().spanId).not.toBe(first.spanContext().spanId);
  });

  it('traces a standalone parse run as one span', async () => {
    engine = await createTestEngine({ steps: [fakeStep('PARSE', { chunks: [] })] });
    const run = await engine.parse({ file: { text: 'hello' } });
    const span = one(exporter.getFinishedSpans(), 'docflow.parse_run');
    expect(span.attributes).toMatchObject({
      [A.RUN_ID]: run.id,
      [A.RUN_KIND]: 'parse_run',
      [A.RUN_STATUS]: 'PROCESSED',
      [A.RUN_ATTEMPTS]: 1,
    });
  });
});

describe('logger', () => {
  /** A real pino logger writing JSON lines into an array. */
  function collectingPino(): { logger: pino.Logger; records: Record<string, unknown>[] } {
    const records: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) {
          if (line) records.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    return { logger: pino({ level: 'debug' }, sink), records };
  }

  it('receives structured records of the run, its steps and their failures', async () => {
    const { logger, records } = collectingPino();
    const run = await failingRun({ logger });
    const events = records.map((r) => r.event);
    expect(events).toEqual(
      expect.arrayContaining([
        'engine.started',
        'workflow_run.created',
        'step_run.started',
        'step_run.attempt_failed',
        'step_run.processed',
        'step_run.failed',
        'workflow_run.failed',
      ]),
    );
    const find = (event: string) => records.find((r) => r.event === event) ?? {};
    // pino levels: 20 debug, 30 info, 40 warn.
    expect(find('workflow_run.created')).toMatchObject({ level: 30, runId: run.id });
    expect(find('step_run.attempt_failed')).toMatchObject({
      level: 40,
      runId: run.id,
      step: 'parse',
      stepType: 'PARSE',
      attempt: 1,
      error: 'provider busy',
    });
    expect(find('step_run.failed')).toMatchObject({
      level: 40,
      step: 'fields',
      failureReason: 'EXTRACTION_FAILED',
      failureMessage: 'no total found',
    });
    expect(find('workflow_run.failed')).toMatchObject({
      level: 40,
      runId: run.id,
      status: 'FAILED',
      failureReason: 'EXTRACTION_FAILED',
    });
    expect(typeof find('workflow_run.failed').durationMs).toBe('number');
    const text = JSON.stringify(records);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(METADATA);
  });

  it('receives the failures the engine survives as error records', async () => {
    const { logger, records } = collectingPino();
    engine = await createTestEngine({ logger, steps: [fakeStep('PARSE', { chunks: [] })] });
    engine.on('parse_run.processed', () => {
      throw new Error('listener broke');
    });
    await engine.parse({ file: { text: 'hello' } });
    await engine.stop();
    const error = records.find((r) => r.event === 'engine.error');
    expect(error).toMatchObject({ level: 50, err: { message: 'listener broke' } });
    expect(records.at(-1)).toMatchObject({ event: 'engine.stopped' });
  });
});
