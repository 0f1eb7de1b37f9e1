import {
  createEngine,
  defineStep,
  type Engine,
  isEngineError,
  type StepDefinition,
  type WorkflowRun,
} from '@docflow/engine';
import { createTestEngine, fakeStep, type TestEngine } from '@docflow/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Issue 22's table: the resource shapes and behaviours the interface asks of the library where it used
 * to differ. One test per row (rows of standalone runs: test/standalone/standalone-attempts.test.ts).
 */

let engine: Engine | TestEngine | undefined;
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
});

const steps = (list: readonly unknown[]) => list as StepDefinition[];

const issuesOf = (error: unknown) =>
  ((error as { details?: { issues?: { code: string; path: string; message: string }[] } }).details
    ?.issues ?? []) as { code: string; path: string; message: string }[];

const resultOf = (run: WorkflowRun, step: string) =>
  run.stepRuns.find((s) => s.step.name === step)?.result as Record<
    string,
    Record<string, unknown>
  > | null;

/** An executor that waits until `release()` is called, then succeeds. */
function gate() {
  let release!: () => void;
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { open, release: () => release() };
}

describe('processor runs of workflow steps name the saved processor that ran', () => {
  it('summary with name and dates, the version that ran, the config used', async () => {
    engine = await createTestEngine({
      steps: [
        fakeStep('PARSE', { chunks: [] }),
        defineStep({
          type: 'EXTRACT',
          async execute(input, context) {
            const ref = input.config.extractor as { id: string; version: string };
            const config = await context.resolveProcessor?.('EXTRACT', ref);
            return { output: { value: { saw: Object.keys(config ?? {}).sort() } } };
          },
        }),
      ],
    });
    const schema = { type: 'object', properties: { total: { type: 'number' } } };
    const extractor = await engine.extractors.create({ name: 'Totals', config: { schema } });
    await engine.extractors.publish(extractor.id, { releaseType: 'major' });
    const run = await (engine as TestEngine).run(
      steps([
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'extract' }] },
        {
          name: 'extract',
          type: 'EXTRACT',
          config: { extractor: { id: extractor.id, version: 'latest' } },
        },
      ]),
    );
    expect(run.status).toBe('PROCESSED');
    const extractRun = resultOf(run, 'extract')?.extractRun;
    expect(extractRun?.extractor).toEqual({
      object: 'extractor',
      id: extractor.id,
      name: 'Totals',
      createdAt: extractor.createdAt,
      updatedAt: expect.any(String),
    });
    expect(extractRun?.extractorVersion).toMatchObject({
      object: 'extractor_version',
      version: '1.0',
    });
    expect(extractRun?.config).toEqual({ type: 'EXTRACT', schema });
  });
});

describe('deleting a file removes it and what was made from it', () => {
  it('children go, runs show file: null, a run that still had to read it fails FILE_DELETED', async () => {
    const hold = gate();
    const parse = defineStep({
      type: 'PARSE',
      async execute(input, context) {
        const file = input.files[0];
        if (!file) throw new Error('no file');
        const text = new TextDecoder().decode(await context.files.read(file.id));
        if (text === 'hold') await hold.open;
        const child = await context.files.create({
          name: 'page-1.txt',
          data: new TextEncoder().encode(text),
          parentFileId: file.id,
        });
        return { output: { child: child.id } };
      },
    });
    engine = createEngine({ steps: [parse], scheduling: { concurrency: 1 } });
    await engine.start();
    const file = await engine.files.upload({ name: 'a.txt', data: 'keep' });
    const parsed = await engine.parseRuns.create({ file: { id: file.id } });
    const done = await engine.parseRuns.waitFor(parsed.id, { timeoutMs: 5000 });
    const child = (done.output as { child: string }).child;
    expect((await engine.files.get(child)).parentFileId).toBe(file.id);

    expect(await engine.files.delete(file.id)).toEqual({
      object: 'file',
      id: file.id,
      deleted: true,
    });
    for (const id of [file.id, child]) {
      const gone = await engine.files.get(id).catch((e: unknown) => e);
      expect(isEngineError(gone, 'NOT_FOUND')).toBe(true);
    }
    expect((await engine.parseRuns.get(parsed.id)).file).toBeNull();

    // A run queued behind another (one slot) whose file goes before it starts.
    const blocker = await engine.files.upload({ name: 'b.txt', data: 'hold' });
    const first = await engine.parseRuns.create({ file: { id: blocker.id } });
    const doomed = await engine.files.upload({ name: 'c.txt', data: 'late' });
    const second = await engine.parseRuns.create({ file: { id: doomed.id } });
    await engine.files.delete(doomed.id);
    hold.release();
    expect((await engine.parseRuns.waitFor(first.id, { timeoutMs: 5000 })).status).toBe(
      'PROCESSED',
    );
    expect(await engine.parseRuns.waitFor(second.id, { timeoutMs: 5000 })).toMatchObject({
      status: 'FAILED',
      failureReason: 'FILE_DELETED',
      failureMessage: `File ${doomed.id} was deleted before the run could read it`,
      file: null,
    });
  });

  it('a workflow run keeps its record but no longer lists the file', async () => {
    engine = await createTestEngine({ steps: [fakeStep('PARSE', { chunks: [] })] });
    const run = await (engine as TestEngine).run(
      steps([
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE' },
      ]),
    );
    const fileId = run.files[0]?.id as string;
    await engine.files.delete(fileId);
    const after = await engine.workflowRuns.get(run.id);
    expect(after.files).toEqual([]);
    expect(resultOf(after, 'parse')?.parseRun?.file).toBeNull();
    expect(after.stepRuns.every((s) => s.files.length === 0)).toBe(true);
  });
});

describe('review corrections', () => {
  const schema = {
    type: 'object',
    properties: { total: { type: 'number' }, lines: { type: 'array' } },
  };
  const flow = steps([
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    { name: 'parse', type: 'PARSE', next: [{ step: 'extract1' }] },
    {
      name: 'extract1',
      type: 'EXTRACT',
      config: { extractorConfig: { schema } },
      next: [{ step: 'rules' }],
    },
    {
      name: 'rules',
      type: 'RULE_VALIDATION',
      config: {
        rules: [{ name: 'lines add up', formula: 'SUM(extract1.lines.amount) = extract1.total' }],
      },
      next: [
        { step: 'review', result: 'fail' },
        { step: 'done', result: 'pass' },
      ],
    },
    { name: 'review', type: 'HUMAN_REVIEW', next: [{ step: 'done' }] },
    { name: 'done', type: 'COLLECT' },
  ]);
  const reviewEngine = () =>
    createTestEngine({
      steps: [
        fakeStep('PARSE', { chunks: [] }),
        fakeStep('EXTRACT', { value: { total: 999, lines: [{ amount: 60 }, { amount: 40 }] } }),
      ],
    });

  it("are checked against the extractor's schema: a clear error, nothing changed", async () => {
    engine = await reviewEngine();
    const waiting = await (engine as TestEngine).run(flow);
    expect(waiting.status).toBe('NEEDS_REVIEW');
    const refused = await engine.workflowRuns
      .review(waiting.id, {
        decision: 'approve',
        reviewer: 'ana@example.com',
        outputs: [{ stepName: 'extract1', output: { value: { total: 'abc' } } }],
      })
      .catch((e: unknown) => e);
    expect(isEngineError(refused, 'VALIDATION_FAILED')).toBe(true);
    expect(issuesOf(refused)).toEqual([
      {
        code: 'OUTPUT_DOES_NOT_FIT_SCHEMA',
        path: 'outputs[0].output.value.total',
        message: 'must be a number',
      },
    ]);
    const unchanged = await engine.workflowRuns.get(waiting.id);
    expect(unchanged.status).toBe('NEEDS_REVIEW');
    expect(resultOf(unchanged, 'extract1')?.extractRun?.reviewed).toBe(false);
  });

  it('of a CONDITIONAL_EXTRACT are checked against the schema of the extractor it chose', async () => {
    engine = await createTestEngine({
      steps: [
        fakeStep('PARSE', { chunks: [] }),
        defineStep({
          type: 'CONDITIONAL_EXTRACT',
          async execute(input, context) {
            const rules = input.config.rules as { extractor: { id: string; version: string } }[];
            const chosen = rules[0]?.extractor as { id: string; version: string };
            await context.resolveProcessor?.('EXTRACT', chosen);
            return { output: { value: { total: 1 }, metadata: {} } };
          },
        }),
      ],
    });
    const extractor = await engine.extractors.create({ name: 'Totals', config: { schema } });
    await engine.extractors.publish(extractor.id, { releaseType: 'major' });
    const waiting = await (engine as TestEngine).run(
      steps([
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'pick' }] },
        {
          name: 'pick',
          type: 'CONDITIONAL_EXTRACT',
          config: { rules: [{ formula: 'TRUE', extractor: { id: extractor.id, version: '1.0' } }] },
          next: [{ step: 'review' }],
        },
        { name: 'review', type: 'HUMAN_REVIEW' },
      ]),
    );
    expect(waiting.status).toBe('NEEDS_REVIEW');
    const refused = await engine.workflowRuns
      .review(waiting.id, {
        decision: 'approve',
        reviewer: 'ana@example.com',
        outputs: [{ stepName: 'pick', output: { value: { total: 'abc' } } }],
      })
      .catch((e: unknown) => e);
    expect(issuesOf(refused)).toEqual([
      {
        code: 'OUTPUT_DOES_NOT_FIT_SCHEMA',
        path: 'outputs[0].output.value.total',
        message: 'must be a number',
      },
    ]);
    const approved = await engine.workflowRuns.review(waiting.id, {
      decision: 'approve',
      reviewer: 'ana@example.com',
      outputs: [{ stepName: 'pick', output: { value: { total: 2 } } }],
    });
    expect(approved.status).toBe('PROCESSED');
  });

  it('re-evaluate the rule results over the corrected outputs, keeping the first ones', async () => {
    engine = await reviewEngine();
    const waiting = await (engine as TestEngine).run(flow);
    const approved = await engine.workflowRuns.review(waiting.id, {
      decision: 'approve',
      reviewer: 'ana@example.com',
      outputs: [
        {
          stepName: 'extract1',
          output: { value: { total: 100, lines: [{ amount: 60 }, { amount: 40 }] } },
        },
      ],
    });
    expect(approved.status).toBe('PROCESSED');
    expect(resultOf(approved, 'rules')).toEqual({
      output: { allPassed: true, rules: [{ name: 'lines add up', valid: true }] },
      initialOutput: {
        allPassed: false,
        rules: [{ name: 'lines add up', valid: false, failureReason: 'RULE_FAILED' }],
      },
    });
  });
});

describe('routing and status', () => {
  it('a CONDITIONAL that took its ELSE route has router result null', async () => {
    engine = await createTestEngine({ steps: [fakeStep('PARSE', { chunks: [] })] });
    const run = await (engine as TestEngine).run(
      steps([
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'route' }] },
        {
          name: 'route',
          type: 'CONDITIONAL',
          config: {
            conditions: [
              { id: 'big', type: 'IF', operation: 'FORMULA', leftOperand: '1 > 2' },
              { id: 'else', type: 'ELSE' },
            ],
          },
          next: [
            { step: 'a', conditionId: 'big' },
            { step: 'b', conditionId: 'else' },
          ],
        },
        { name: 'a', type: 'COLLECT' },
        { name: 'b', type: 'COLLECT' },
      ]),
    );
    expect(run.status).toBe('PROCESSED');
    expect(resultOf(run, 'route')).toEqual({ output: null });
    expect(run.stepRuns.map((s) => s.step.name)).toContain('b');
  });

  it('a run waiting for a slot is PENDING, with no startTime, until its first step starts', async () => {
    const hold = gate();
    engine = createEngine({
      scheduling: { concurrency: 1 },
      steps: [
        defineStep({
          type: 'PARSE',
          async execute(input) {
            if (input.metadata.hold) await hold.open;
            return { output: { chunks: [] } };
          },
        }),
      ],
    });
    await engine.start();
    const wf = await engine.workflows.create({
      name: 'one step',
      steps: steps([
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE' },
      ]),
    });
    await engine.workflows.deploy(wf.id);
    const first = await engine.workflowRuns.create({
      workflow: { id: wf.id },
      file: { text: 'a' },
      metadata: { hold: true },
    });
    expect(first).toMatchObject({ status: 'PROCESSING', startTime: expect.any(String) });
    const second = await engine.workflowRuns.create({
      workflow: { id: wf.id },
      file: { text: 'b' },
    });
    expect(second).toMatchObject({ status: 'PENDING', startTime: null, initialRunAt: null });
    hold.release();
    const done = await engine.workflowRuns.waitFor(second.id, { timeoutMs: 5000 });
    expect(done.status).toBe('PROCESSED');
    expect(done.startTime).not.toBeNull();
  });

  it('refuses outputs for a processor no step of the workflow runs, naming the path', async () => {
    engine = await createTestEngine({ steps: [fakeStep('PARSE', { chunks: [] })] });
    const wf = await engine.workflows.create({
      name: 'parse only',
      steps: steps([
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE' },
      ]),
    });
    await engine.workflows.deploy(wf.id);
    const refused = await engine.workflowRuns
      .create({
        workflow: { id: wf.id },
        file: { text: 'x' },
        outputs: [{ processorId: 'ex_unknown', output: { value: {} } }],
      })
      .catch((e: unknown) => e);
    expect(isEngineError(refused, 'VALIDATION_FAILED')).toBe(true);
    expect(issuesOf(refused).map((i) => [i.code, i.path])).toEqual([
      ['UNKNOWN_PROCESSOR', 'outputs[0].processorId'],
    ]);
    expect((await engine.workflowRuns.list()).data).toEqual([]);
  });
});

describe('lists and packages', () => {
  it('list errors name nextPageToken and sortDir', async () => {
    engine = await createTestEngine();
    const token = await engine.files.list({ nextPageToken: 'garbage' }).catch((e: unknown) => e);
    expect(isEngineError(token, 'VALIDATION_FAILED')).toBe(true);
    expect(issuesOf(token)[0]?.path).toBe('nextPageToken');
    expect((token as Error).message).toContain('nextPageToken');
    expect((token as Error).message).not.toContain('pageToken is not');
    const order = await engine.workflowRuns
      .list({ sortDir: 'up' as never })
      .catch((e: unknown) => e);
    expect(issuesOf(order).map((i) => [i.code, i.path])).toEqual([['INVALID_SORT_DIR', 'sortDir']]);
    expect((order as Error).message).not.toContain('order');
  });

  it('lists by updatedAt in both directions, page by page, once an older item changed', async () => {
    const test = await createTestEngine();
    engine = test;
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      ids.push((await test.workflows.create({ name })).id);
      await test.clock.advance(1000);
    }
    const [a, b, c] = ids;
    await test.workflows.update(a as string, { name: 'a again' });
    const first = await test.workflows.list({ sortBy: 'updatedAt', maxPageSize: 2 });
    expect(first.data.map((w) => w.id)).toEqual([a, c]);
    const rest = await test.workflows.list({
      sortBy: 'updatedAt',
      maxPageSize: 2,
      nextPageToken: first.nextPageToken,
    });
    expect(rest.data.map((w) => w.id)).toEqual([b]);
    expect(rest.nextPageToken).toBeUndefined();
    const asc = await test.workflows.list({ sortBy: 'updatedAt', sortDir: 'asc' });
    expect(asc.data.map((w) => w.id)).toEqual([b, c, a]);
    // Creation order stays the default, and a token of one order does not continue the other.
    expect((await test.workflows.list()).data.map((w) => w.id)).toEqual([c, b, a]);
    const mixed = await test.workflows
      .list({ maxPageSize: 2, nextPageToken: first.nextPageToken })
      .catch((e: unknown) => e);
    expect(issuesOf(mixed).map((i) => [i.code, i.path])).toEqual([
      ['INVALID_PAGE_TOKEN', 'nextPageToken'],
    ]);
    const bad = await test.workflowRuns.list({ sortBy: 'name' as never }).catch((e: unknown) => e);
    expect(issuesOf(bad).map((i) => [i.code, i.path])).toEqual([['INVALID_SORT_BY', 'sortBy']]);
  });

  it("a package run's embedded extract run has file: null and its files; usage breaks down by child run", async () => {
    engine = await createTestEngine({
      steps: [
        fakeStep('PARSE', { chunks: [] }),
        defineStep({
          type: 'EXTRACT',
          async execute() {
            return { output: { value: {} }, usage: { credits: 3 } };
          },
        }),
      ],
    });
    const wf = await engine.workflows.create({
      name: 'package',
      steps: steps([
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE', next: [{ step: 'extract' }] },
        {
          name: 'extract',
          type: 'EXTRACT',
          config: { extractorConfig: { schema: { type: 'object' } } },
        },
      ]),
    });
    await engine.workflows.deploy(wf.id);
    const a = await engine.files.upload({ name: 'a.txt', data: 'a' });
    const b = await engine.files.upload({ name: 'b.txt', data: 'b' });
    const run = await engine.workflowRuns.create({
      workflow: { id: wf.id },
      package: { files: [{ id: a.id }, { id: b.id }] },
    });
    const done = await engine.workflowRuns.waitFor(run.id, { timeoutMs: 5000 });
    const extractRun = resultOf(done, 'extract')?.extractRun;
    expect(extractRun).toHaveProperty('file', null);
    expect((extractRun?.files as { id: string }[] | undefined)?.map((f) => f.id)).toEqual([
      a.id,
      b.id,
    ]);
    expect(extractRun?.config).toEqual({ schema: { type: 'object' } });
    expect(done.usage).toEqual({
      credits: 3,
      totalCredits: 3,
      breakdown: [{ object: 'extract_run', id: extractRun?.id, credits: 3 }],
    });
  });
});
