import { createEngine, defineStep, type Engine, isEngineError, StepError } from '@docflow/engine';
import { afterEach, describe, expect, it } from 'vitest';

let engine: Engine;
afterEach(async () => {
  await engine?.stop();
});

const parse = defineStep({
  type: 'PARSE',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      parseConfig: {
        type: 'object',
        additionalProperties: false,
        properties: { target: { enum: ['markdown', 'spatial'] } },
      },
    },
  },
  async execute(input, ctx) {
    const file = input.files[0];
    if (!file) return { failure: { reason: 'INTERNAL_ERROR', message: 'no file' } };
    const text = new TextDecoder().decode(await ctx.files.read(file.id));
    if (text === 'corrupt') return { failure: { reason: 'CORRUPT_FILE', message: 'cannot read' } };
    if (text === 'hang') {
      await new Promise((_r, reject) =>
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
      );
    }
    return { output: { chunks: [{ content: text }] }, usage: { credits: 1, pages: 1 } };
  },
});

describe('standalone parse runs', () => {
  it('creates, runs, lists and emits parse_run events', async () => {
    engine = createEngine({ steps: [parse] });
    await engine.start();
    const events: string[] = [];
    engine.on('*', (e) => {
      events.push(e.eventType);
    });
    const file = await engine.files.upload({ name: 'a.txt', data: 'hello' });
    const run = await engine.parseRuns.create({
      file: { id: file.id },
      config: { target: 'markdown' },
    });
    expect(run).toMatchObject({ object: 'parse_run', status: 'PROCESSING' });
    expect(run.id).toMatch(/^pr_/);
    const done = await engine.parseRuns.waitFor(run.id, { timeoutMs: 5000 });
    expect(done).toMatchObject({
      status: 'PROCESSED',
      output: { chunks: [{ content: 'hello' }] },
      usage: { credits: 1, pages: 1 },
    });
    expect(events).toContain('parse_run.processed');
    const failed = await engine.parse({ file: { text: 'corrupt' } });
    expect(failed).toMatchObject({
      status: 'FAILED',
      failureReason: 'CORRUPT_FILE',
      failureMessage: 'cannot read',
    });
    expect(events).toContain('parse_run.failed');
    expect((await engine.parseRuns.list()).data.map((r) => r.id)).toEqual([failed.id, run.id]);
  });

  it('rejects bad config by path and stores nothing', async () => {
    engine = createEngine({ steps: [parse] });
    await engine.start();
    const bad = await engine.parseRuns
      .create({ file: { text: 'x' }, config: { target: 'html' } })
      .catch((e) => e);
    expect(isEngineError(bad, 'VALIDATION_FAILED')).toBe(true);
    expect(bad.details.issues[0].path).toBe('config.target');
    const missing = await engine.parseRuns.create({ file: { id: 'file_nope' } }).catch((e) => e);
    expect(missing.details.issues[0].path).toBe('file.id');
    expect((await engine.parseRuns.list()).data).toEqual([]);
    expect((await engine.files.list()).data).toEqual([]);
  });

  it('cancels a processing run; a finished run cannot be cancelled', async () => {
    engine = createEngine({ steps: [parse] });
    await engine.start();
    const run = await engine.parseRuns.create({ file: { text: 'hang' } });
    const cancelled = await engine.parseRuns.cancel(run.id);
    expect(cancelled.status).toBe('CANCELLED');
    expect((await engine.parseRuns.waitFor(run.id)).status).toBe('CANCELLED');
    const again = await engine.parseRuns.cancel(run.id).catch((e) => e);
    expect(isEngineError(again, 'INVALID_STATE')).toBe(true);
  });

  it('runs batches with a shared bpar_ batch id and a batch event', async () => {
    engine = createEngine({ steps: [parse] });
    await engine.start();
    const events: string[] = [];
    engine.on('batch_parse_run.processed', (e) => {
      events.push(e.eventType);
    });
    const batch = await engine.parseRuns.batch({
      inputs: [{ file: { text: 'a' } }, { file: { text: 'b' } }],
    });
    expect(batch.batchId).toMatch(/^bpar_/);
    expect(batch.runs.every((r) => r.status === 'PENDING')).toBe(true);
    for (const r of batch.runs)
      expect((await engine.parseRuns.waitFor(r.id, { timeoutMs: 5000 })).status).toBe('PROCESSED');
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual(['batch_parse_run.processed']);
  });

  it('retries a throwing executor, then fails with its reason', async () => {
    let calls = 0;
    engine = createEngine({
      steps: [
        defineStep({
          type: 'PARSE',
          async execute() {
            calls++;
            throw new StepError('always broken', { retryable: false, reason: 'OCR_ERROR' });
          },
        }),
      ],
    });
    await engine.start();
    const done = await engine.parse({ file: { text: 'x' } });
    expect(done).toMatchObject({ status: 'FAILED', failureReason: 'OCR_ERROR' });
    expect(calls).toBe(1);
  });
});
