import { join } from 'node:path';
import { createEngine, type Engine, type EngineError, isEngineError } from '@docflow/engine';
import { memoryStorage, type StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeStep, linear, tempDir } from './helpers.ts';

const adapters: [string, () => StorageAdapter][] = [
  ['memory', () => memoryStorage()],
  ['sqlite', () => sqliteStorage({ path: join(tempDir(), 'e.db') })],
];

describe.each(adapters)('createEngine on %s', (_name, makeStorage) => {
  let engine: Engine;
  afterEach(async () => {
    await engine?.stop();
  });

  it('runs TRIGGER → PARSE → EXTRACT to PROCESSED with the interface shapes', async () => {
    const calls: string[] = [];
    engine = createEngine({
      storage: makeStorage(),
      steps: [
        fakeStep('PARSE', () => ({ chunks: [] }), calls),
        fakeStep(
          'EXTRACT',
          ({ outputs }) => ({ value: { seen: Object.keys(outputs) }, metadata: {} }),
          calls,
        ),
      ],
    });
    await engine.start();
    const file = await engine.files.upload({ name: 'note.txt', data: 'Hello docflow' });
    expect(file).toMatchObject({ object: 'file', type: 'TXT', name: 'note.txt' });
    expect(file.id).toMatch(/^file_/);
    const wf = await engine.workflows.create({ name: 'Linear', steps: linear('PARSE', 'EXTRACT') });
    const version = await engine.workflows.deploy(wf.id);
    expect(version.version).toBe('1');
    const run = await engine.workflowRuns.create({
      workflow: { id: wf.id },
      file: { id: file.id },
    });
    expect(run.id).toMatch(/^workflow_run_/);
    const done = await engine.workflowRuns.waitFor(run.id, { timeoutMs: 5000 });
    expect(done.status).toBe('PROCESSED');
    expect(done.workflowVersion.version).toBe('1');
    expect(done.stepRuns.map((s) => [s.step.name, s.status])).toEqual([
      ['trigger', 'PROCESSED'],
      ['parse1', 'PROCESSED'],
      ['extract2', 'PROCESSED'],
    ]);
    expect(calls).toEqual(['parse1', 'extract2']);
    const extract = done.stepRuns[2];
    expect(extract?.result).toMatchObject({
      extractRun: { object: 'extract_run', output: { value: { seen: ['trigger', 'parse1'] } } },
    });
    expect(done.usage).toEqual({
      credits: 2,
      totalCredits: 2,
      breakdown: [
        { object: 'parse_run', id: expect.stringMatching(/^pr_/), credits: 1 },
        { object: 'extract_run', id: expect.stringMatching(/^exr_/), credits: 1 },
      ],
    });
    expect(done.startTime).not.toBeNull();
    expect(done.endTime).not.toBeNull();
    expect(done.files.map((f) => f.id)).toEqual([file.id]);
    const listed = await engine.workflowRuns.list({ workflowId: wf.id });
    expect(listed.data.map((r) => r.id)).toEqual([run.id]);
  });

  it('rejects bad input with a stable code and the path, storing nothing', async () => {
    engine = createEngine({ storage: makeStorage(), steps: [fakeStep('PARSE')] });
    await engine.start();
    const twoTriggers = [
      { name: 't1', type: 'TRIGGER', next: [{ step: 'p' }] },
      { name: 't2', type: 'TRIGGER', next: [{ step: 'p' }] },
      { name: 'p', type: 'PARSE' },
    ] as const;
    const error = await engine.workflows
      .create({ name: 'Bad', steps: twoTriggers as never })
      .catch((e) => e);
    expect(isEngineError(error, 'VALIDATION_FAILED')).toBe(true);
    expect((error as EngineError).details.issues?.length).toBeGreaterThan(0);
    expect((await engine.workflows.list()).data).toEqual([]);

    const unknown = await engine.workflowRuns
      .create({ workflow: { id: 'workflow_nope' }, file: { text: 'x' } })
      .catch((e) => e);
    expect(isEngineError(unknown, 'NOT_FOUND')).toBe(true);
    expect((unknown as EngineError).details.issues?.[0]?.path).toBe('workflow.id');

    const wf = await engine.workflows.create({ name: 'Ok', steps: linear('PARSE') });
    const missingFile = await engine.workflowRuns
      .create({ workflow: { id: wf.id }, file: { id: 'file_missing' } })
      .catch((e) => e);
    expect(isEngineError(missingFile, 'NOT_FOUND')).toBe(true);
    expect((missingFile as EngineError).details.issues?.[0]?.path).toBe('file.id');
    const both = await engine.workflowRuns
      .create({
        workflow: { id: wf.id },
        file: { text: 'a' },
        package: { files: [{ id: 'a' }, { id: 'b' }] },
      })
      .catch((e) => e);
    expect(isEngineError(both, 'VALIDATION_FAILED')).toBe(true);
    expect((await engine.workflowRuns.list()).data).toEqual([]);
    expect((await engine.files.list()).data).toEqual([]);
  });

  it('refuses resource calls before start() and after stop()', async () => {
    engine = createEngine({ storage: makeStorage() });
    const early = await engine.files.list().catch((e) => e);
    expect(isEngineError(early, 'NOT_STARTED')).toBe(true);
    await engine.start();
    expect((await engine.files.list()).data).toEqual([]);
    await engine.stop();
    const late = await engine.workflows.list().catch((e) => e);
    expect(isEngineError(late, 'NOT_STARTED')).toBe(true);
  });

  it('keeps draft and deployed versions apart', async () => {
    engine = createEngine({
      storage: makeStorage(),
      steps: [fakeStep('PARSE'), fakeStep('EXTRACT')],
    });
    await engine.start();
    const wf = await engine.workflows.create({ name: 'V', steps: linear('PARSE') });
    expect(wf.latestVersion).toBeNull();
    await engine.workflows.deploy(wf.id);
    await engine.workflows.update(wf.id, { steps: linear('PARSE', 'EXTRACT') });
    const v2 = await engine.workflows.deploy(wf.id);
    expect(v2.version).toBe('2');
    expect((await engine.workflows.getVersion(wf.id, '1')).steps).toHaveLength(2);
    expect((await engine.workflows.getVersion(wf.id, '2')).steps).toHaveLength(3);
    const pinned = await engine.workflowRuns.create({
      workflow: { id: wf.id, version: '1' },
      file: { text: 'x' },
    });
    const latest = await engine.workflowRuns.create({
      workflow: { id: wf.id },
      file: { text: 'x' },
    });
    const a = await engine.workflowRuns.waitFor(pinned.id, { timeoutMs: 5000 });
    const b = await engine.workflowRuns.waitFor(latest.id, { timeoutMs: 5000 });
    expect(a.workflowVersion.version).toBe('1');
    expect(a.stepRuns).toHaveLength(2);
    expect(b.workflowVersion.version).toBe('2');
    expect(b.stepRuns).toHaveLength(3);
  });

  it('reads a deployed version once for all the runs created on it', async () => {
    const storage = makeStorage();
    const reads: string[] = [];
    const byKey = storage.getDocumentByKey.bind(storage);
    storage.getDocumentByKey = (collection, key, options) => {
      if (collection === 'workflowVersions') reads.push(key);
      return byKey(collection, key, options);
    };
    engine = createEngine({ storage, steps: [fakeStep('PARSE'), fakeStep('EXTRACT')] });
    await engine.start();
    const wf = await engine.workflows.create({ name: 'C', steps: linear('PARSE') });
    await engine.workflows.deploy(wf.id);
    const runOn = async (version?: string) => {
      const run = await engine.workflowRuns.create({
        workflow: version === undefined ? { id: wf.id } : { id: wf.id, version },
        file: { text: 'x' },
      });
      return (await engine.workflowRuns.waitFor(run.id, { timeoutMs: 5000 })).workflowVersion;
    };
    reads.length = 0;
    for (let i = 0; i < 3; i++) expect((await runOn()).version).toBe('1');
    expect(reads).toEqual([`${wf.id}@1`]);
    // A new deployment is what "latest" means from then on; a pinned version stays itself.
    await engine.workflows.update(wf.id, { steps: linear('PARSE', 'EXTRACT') });
    await engine.workflows.deploy(wf.id);
    expect((await runOn()).version).toBe('2');
    expect((await runOn('1')).version).toBe('1');
    expect(reads).toEqual([`${wf.id}@1`, `${wf.id}@2`]);
    // An unknown version is still looked up, and still an error.
    const missing = await runOn('9').catch((e: EngineError) => e);
    expect(isEngineError(missing, 'NOT_FOUND')).toBe(true);
  });
});
