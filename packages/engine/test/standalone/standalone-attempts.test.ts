import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  createEngine,
  defineStep,
  type Engine,
  isEngineError,
  type StepContext,
  StepError,
} from '@docflow/engine';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
});

// Files by URL come from a loopback server: `/invoice.txt` serves text, anything else 404.
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/invoice.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('Invoice INV-7 total 42.00');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** An EXTRACT executor that outputs the config it got and the text of its files. */
const echoExtract = defineStep({
  type: 'EXTRACT',
  async execute(input, context) {
    const texts: string[] = [];
    for (const file of input.files) {
      texts.push(new TextDecoder().decode(await context.files.read(file.id)));
    }
    return { output: { config: input.config, texts }, usage: { credits: 2 } };
  },
});

describe('standalone runs execute through the step attempt of workflow steps', () => {
  it("honour the engine's retry policy and fail with the error's reason", async () => {
    const attempts: number[] = [];
    engine = createEngine({
      retry: { maxAttempts: 2, initialIntervalMs: 1, maxIntervalMs: 1 },
      steps: [
        defineStep({
          type: 'PARSE',
          async execute(_input, context) {
            attempts.push(context.attempt);
            throw new StepError('the OCR service is down', { reason: 'OCR_ERROR' });
          },
        }),
      ],
    });
    await engine.start();
    const run = await engine.parseRuns.create({ file: { text: 'x' } });
    const done = await engine.parseRuns.waitFor(run.id, { timeoutMs: 5000 });
    expect(done).toMatchObject({
      status: 'FAILED',
      failureReason: 'OCR_ERROR',
      failureMessage: 'the OCR service is down',
    });
    // Two attempts, as configured (a second runtime used to make three, a second apart).
    expect(attempts).toEqual([1, 2]);
  });

  it("are aborted past the engine's stepTimeoutMs, as workflow steps without a timeoutMs", async () => {
    const aborted: string[] = [];
    const hang = defineStep({
      type: 'PARSE',
      execute: (input, context) =>
        new Promise<never>((_resolve, reject) => {
          context.signal.addEventListener('abort', () => {
            aborted.push(input.stepName);
            reject(context.signal.reason);
          });
        }),
    });
    engine = createEngine({ steps: [hang], stepTimeoutMs: 30, retry: { maxAttempts: 1 } });
    await engine.start();
    const run = await engine.parseRuns.create({ file: { text: 'x' } });
    expect(await engine.parseRuns.waitFor(run.id, { timeoutMs: 5000 })).toMatchObject({
      status: 'FAILED',
      failureReason: 'INTERNAL_ERROR',
      failureMessage: 'timed out after 30 ms',
    });
    const workflow = await engine.workflows.create({
      name: 'one step',
      steps: [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE' },
      ],
    });
    const wfRun = await engine.workflowRuns.create({
      workflow: { id: workflow.id, version: 'draft' },
      file: { text: 'x' },
    });
    expect(await engine.workflowRuns.waitFor(wfRun.id, { timeoutMs: 5000 })).toMatchObject({
      status: 'FAILED',
      failureMessage: 'Step "parse" failed: timed out after 30 ms',
    });
    expect(aborted).toEqual(['parse_run', 'parse']);
  });

  it('refuse engine options out of range, naming them', () => {
    const refused = (() => {
      try {
        createEngine({ stepTimeoutMs: 0, retry: { maxAttempts: 0, backoff: 2 } as never });
      } catch (error) {
        return error;
      }
    })();
    expect(isEngineError(refused, 'INVALID_CONFIGURATION')).toBe(true);
    expect(
      (refused as { details: { issues: { path: string }[] } }).details.issues.map((i) => i.path),
    ).toEqual(['retry.backoff', 'retry.maxAttempts', 'stepTimeoutMs']);
  });

  it('run an interrupted attempt again on the next start, with the same idempotency key', async () => {
    const path = join(tempDir(), 'standalone.db');
    const seen: { key: string; attempt: number }[] = [];
    let started!: () => void;
    const executing = new Promise<void>((resolve) => {
      started = resolve;
    });
    const hang = defineStep({
      type: 'PARSE',
      async execute(_input, context: StepContext) {
        seen.push({ key: context.idempotencyKey, attempt: context.attempt });
        started();
        await new Promise((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(context.signal.reason)),
        );
        return { output: null };
      },
    });
    engine = createEngine({ storage: sqliteStorage({ path }), steps: [hang] });
    await engine.start();
    const run = await engine.parseRuns.create({ file: { text: 'x' } });
    await executing;
    await engine.stop();
    const finish = defineStep({
      type: 'PARSE',
      async execute(_input, context) {
        seen.push({ key: context.idempotencyKey, attempt: context.attempt });
        return { output: { chunks: [] }, usage: { credits: 1 } };
      },
    });
    engine = createEngine({ storage: sqliteStorage({ path }), steps: [finish] });
    await engine.start();
    const done = await engine.parseRuns.waitFor(run.id, { timeoutMs: 5000 });
    expect(done.status).toBe('PROCESSED');
    expect(seen).toEqual([
      { key: run.id, attempt: 1 },
      { key: run.id, attempt: 1 },
    ]);
  });
});

describe('standalone runs as the SDK sends them, and as the interface returns them', () => {
  it('run a saved extractor: its summary, the version that ran, the config used with overrides', async () => {
    engine = createEngine({ steps: [echoExtract] });
    await engine.start();
    const schema = { type: 'object', properties: { total: { type: 'number' } } };
    const extractor = await engine.extractors.create({ name: 'Invoices', config: { schema } });
    await engine.extractors.publish(extractor.id, { releaseType: 'major' });
    const file = await engine.files.upload({ name: 'a.txt', data: 'Total 42.00' });
    const run = await engine.extractRuns.create({
      extractor: { id: extractor.id, overrideConfig: { extractionRules: 'Totals in EUR' } },
      file: { id: file.id },
    });
    expect(run.extractor).toEqual({
      object: 'extractor',
      id: extractor.id,
      name: 'Invoices',
      createdAt: extractor.createdAt,
      updatedAt: expect.any(String),
    });
    // "latest" resolved to the version that ran, as a version summary.
    expect(run.extractorVersion).toMatchObject({
      object: 'extractor_version',
      version: '1.0',
      extractorId: extractor.id,
    });
    expect(run.config).toEqual({ type: 'EXTRACT', schema, extractionRules: 'Totals in EUR' });
    const done = await engine.extractRuns.waitFor(run.id, { timeoutMs: 5000 });
    expect(done.output).toEqual({
      config: { extractorConfig: { type: 'EXTRACT', schema, extractionRules: 'Totals in EUR' } },
      texts: ['Total 42.00'],
    });
    expect(done.usage).toEqual({
      credits: 2,
      totalCredits: 2,
      breakdown: [{ object: 'extract_run', id: run.id, credits: 2 }],
    });
  });

  it('take files by URL for every kind; a URL that cannot be fetched fails the run', async () => {
    engine = createEngine({
      // The test's file server listens on 127.0.0.1, which the document URL policy refuses.
      downloads: { urlPolicy: { allowLoopback: true } },
      steps: [
        echoExtract,
        ...(['PARSE', 'CLASSIFY', 'SPLIT'] as const).map((type) =>
          defineStep({
            type,
            async execute(input, context) {
              const file = input.files[0];
              const text = file ? new TextDecoder().decode(await context.files.read(file.id)) : '';
              return { output: { text } };
            },
          }),
        ),
      ],
    });
    await engine.start();
    const url = `${base}/invoice.txt`;
    const classifications = [{ id: 'other', type: 'other', description: 'anything' }];
    const runs = [
      await engine.parseRuns.create({ file: { url } }),
      await engine.extractRuns.create({ file: { url, name: 'inv.txt' }, config: { schema: {} } }),
      await engine.classifyRuns.create({ file: { url }, config: { classifications } }),
      await engine.splitRuns.create({
        file: { url },
        config: { splitClassifications: classifications },
      }),
    ];
    expect(runs.map((r) => r.file?.name)).toEqual([
      'invoice.txt',
      'inv.txt',
      'invoice.txt',
      'invoice.txt',
    ]);
    const services = [engine.parseRuns, engine.extractRuns, engine.classifyRuns, engine.splitRuns];
    for (const [i, run] of runs.entries()) {
      const done = await services[i]?.waitFor(run.id, { timeoutMs: 5000 });
      expect(done?.status).toBe('PROCESSED');
      expect(JSON.stringify(done?.output)).toContain('INV-7');
    }
    const missing = await engine.parseRuns.create({ file: { url: `${base}/gone.pdf` } });
    expect(missing).toMatchObject({ status: 'FAILED', failureReason: 'UNABLE_TO_DOWNLOAD_FILE' });
  });

  it('extract from a package of files: file null, files in order', async () => {
    engine = createEngine({
      steps: [echoExtract],
      downloads: { urlPolicy: { allowLoopback: true } },
    });
    await engine.start();
    const a = await engine.files.upload({ name: 'a.txt', data: 'first' });
    const run = await engine.extractRuns.create({
      config: { schema: {} },
      package: { files: [{ id: a.id }, { url: `${base}/invoice.txt` }] },
    });
    expect(run.file).toBeNull();
    expect(run.files?.map((f) => f.name)).toEqual(['a.txt', 'invoice.txt']);
    const done = await engine.extractRuns.waitFor(run.id, { timeoutMs: 5000 });
    expect((done.output as { texts: string[] }).texts).toEqual([
      'first',
      'Invoice INV-7 total 42.00',
    ]);
    const duplicate = await engine.extractRuns
      .create({ config: { schema: {} }, package: { files: [{ id: a.id }, { id: a.id }] } })
      .catch((e: unknown) => e);
    expect(isEngineError(duplicate, 'VALIDATION_FAILED')).toBe(true);
  });

  it('run batches with the config given once', async () => {
    engine = createEngine({ steps: [echoExtract] });
    await engine.start();
    const batch = await engine.extractRuns.batch({
      config: { schema: { type: 'object' } },
      inputs: [{ file: { text: 'one' }, metadata: { n: 1 } }, { file: { text: 'two' } }],
    });
    expect(batch.batchId).toMatch(/^bpr_/);
    expect(batch.runs.map((r) => [r.status, r.metadata])).toEqual([
      ['PENDING', { n: 1 }],
      ['PENDING', {}],
    ]);
    for (const r of batch.runs) {
      expect((await engine.extractRuns.waitFor(r.id, { timeoutMs: 5000 })).status).toBe(
        'PROCESSED',
      );
    }
  });

  it('delete runs', async () => {
    engine = createEngine({ steps: [echoExtract] });
    await engine.start();
    const run = await engine.extractRuns.create({ file: { text: 'x' }, config: { schema: {} } });
    await engine.extractRuns.waitFor(run.id, { timeoutMs: 5000 });
    expect(await engine.extractRuns.delete(run.id)).toEqual({
      object: 'extract_run',
      id: run.id,
      deleted: true,
    });
    const gone = await engine.extractRuns.get(run.id).catch((e: unknown) => e);
    expect(isEngineError(gone, 'NOT_FOUND')).toBe(true);
    expect((await engine.extractRuns.list()).data).toEqual([]);
  });

  it('report the config used, with the executor defaults applied', async () => {
    engine = createEngine({
      steps: [
        defineStep<{ parseConfig?: { target?: string } }>({
          type: 'PARSE',
          appliedConfig: (config) => ({
            parseConfig: { target: 'markdown', ...(config.parseConfig ?? {}) },
          }),
          async execute() {
            return { output: { chunks: [] } };
          },
        }),
      ],
    });
    await engine.start();
    expect((await engine.parseRuns.create({ file: { text: 'x' } })).config).toEqual({
      target: 'markdown',
    });
    expect(
      (await engine.parseRuns.create({ file: { text: 'x' }, config: { target: 'spatial' } }))
        .config,
    ).toEqual({ target: 'spatial' });
  });

  it('refuse a password and a reference with both processor and config, by path', async () => {
    engine = createEngine({ steps: [echoExtract] });
    await engine.start();
    const password = await engine.extractRuns
      .create({ file: { url: `${base}/a.pdf`, settings: { password: 'x' } }, config: {} })
      .catch((e: unknown) => e);
    expect(isEngineError(password, 'VALIDATION_FAILED')).toBe(true);
    expect((password as { details: { issues: { path: string }[] } }).details.issues[0]?.path).toBe(
      'file.settings.password',
    );
    const both = await engine.extractRuns
      .create({ file: { text: 'x' }, config: {}, extractor: { id: 'ex_1' } })
      .catch((e: unknown) => e);
    expect((both as { details: { issues: { path: string }[] } }).details.issues[0]?.path).toBe(
      'config',
    );
  });
});
