/**
 * What crosses the public API is JSON, checked before anything is stored (issue 21): cycles,
 * depth, size and values JSON has no form for are VALIDATION_FAILED naming the path; reserved
 * names are refused where they become keys; a refused call leaves no file behind.
 */
import { EngineError, type ValidationIssue } from '@docflow/engine';
import { createTestEngine, type TestEngine } from '@docflow/engine/testing';
import { memoryStorage, type StorageAdapter } from '@docflow/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeStep, steps } from '../helpers.ts';

let engine: TestEngine | undefined;
/** Blob keys stored and not deleted, by engine storage. */
const liveBlobs = new WeakMap<StorageAdapter, Set<string>>();

/** Memory storage whose live blob keys the test can see. */
function trackedStorage(): StorageAdapter {
  const storage = memoryStorage();
  const live = new Set<string>();
  const { blobs } = storage;
  const put = blobs.put.bind(blobs);
  const del = blobs.delete.bind(blobs);
  Object.assign(blobs, {
    put: async (key: string, bytes: Uint8Array) => {
      await put(key, bytes);
      live.add(key);
    },
    delete: async (key: string) => {
      await del(key);
      live.delete(key);
    },
  });
  liveBlobs.set(storage, live);
  return storage;
}
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
});

async function withWorkflow(): Promise<{ engine: TestEngine; workflowId: string }> {
  engine = await createTestEngine({ storage: trackedStorage(), steps: [fakeStep('PARSE')] });
  const wf = await engine.workflows.create({
    name: 'input checks',
    steps: steps([
      { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
      { name: 'parse', type: 'PARSE' },
    ]),
  });
  await engine.workflows.deploy(wf.id);
  return { engine, workflowId: wf.id };
}

/** The issues of the VALIDATION_FAILED `call` rejects with. */
async function refusal(call: Promise<unknown>): Promise<readonly ValidationIssue[]> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  expect((error as EngineError).code).toBe('VALIDATION_FAILED');
  return (error as EngineError).details?.issues ?? [];
}

/** Nothing stored: no file (row or blob) and no run. */
async function expectNothingStored(e: TestEngine): Promise<void> {
  expect((await e.files.list()).data).toEqual([]);
  expect((await e.workflowRuns.list()).data).toEqual([]);
  expect([...(liveBlobs.get(e.storage) ?? ['untracked'])]).toEqual([]);
}

function deeplyNested(depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let at = root;
  for (let i = 0; i < depth; i++) {
    const next: Record<string, unknown> = {};
    at.x = next;
    at = next;
  }
  return root;
}

describe('workflow run input is JSON, checked before anything is stored', () => {
  it('cyclic metadata is refused at its path and stores no file for the inline text', async () => {
    const { engine: e, workflowId } = await withWorkflow();
    const metadata: Record<string, unknown> = { customer: 'ACME' };
    metadata.self = metadata;
    const issues = await refusal(
      e.workflowRuns.create({
        workflow: { id: workflowId },
        file: { text: 'invoice' },
        metadata: metadata as never,
      }),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({ code: 'CYCLE', path: 'metadata.self' }),
    );
    await expectNothingStored(e);
  });

  it('100,000 levels of nesting are refused past depth 100, without a stack overflow', async () => {
    const { engine: e, workflowId } = await withWorkflow();
    const issues = await refusal(
      e.workflowRuns.create({
        workflow: { id: workflowId },
        file: { text: 'invoice' },
        metadata: deeplyNested(100_000) as never,
      }),
    );
    expect(issues[0]).toMatchObject({ code: 'TOO_DEEP' });
    expect(issues[0]?.path).toMatch(/^metadata(\.x)+$/);
    await expectNothingStored(e);
  });

  it.each([
    ['a BigInt', 10n, 'NOT_JSON'],
    ['a function', () => 1, 'NOT_JSON'],
    ['a Date', new Date(0), 'NOT_JSON'],
    ['a Map', new Map([['a', 1]]), 'NOT_JSON'],
    ['NaN', Number.NaN, 'NOT_JSON'],
    ['Infinity', Number.POSITIVE_INFINITY, 'NOT_JSON'],
    ['undefined in an array', [1, undefined], 'NOT_JSON'],
  ])('%s in metadata is refused, not rewritten by JSON conversion', async (_, value, code) => {
    const { engine: e, workflowId } = await withWorkflow();
    const issues = await refusal(
      e.workflowRuns.create({
        workflow: { id: workflowId },
        file: { text: 'invoice' },
        metadata: { nested: { value } } as never,
      }),
    );
    expect(issues[0]).toMatchObject({ code });
    expect(issues[0]?.path).toMatch(/^metadata\.nested\.value/);
    await expectNothingStored(e);
  });

  it('a BigInt in outputs and a cycle in batch metadata are refused at their paths', async () => {
    const { engine: e, workflowId } = await withWorkflow();
    const outputs = await refusal(
      e.workflowRuns.create({
        workflow: { id: workflowId },
        file: { text: 'invoice' },
        outputs: [{ processorId: 'ex_1', output: { total: 10n } }] as never,
      }),
    );
    expect(outputs[0]).toMatchObject({ code: 'NOT_JSON', path: 'outputs[0].output.total' });
    const cyclic: Record<string, unknown> = {};
    cyclic.again = [cyclic];
    const batch = await refusal(
      e.workflowRuns.createBatch({
        workflow: { id: workflowId },
        inputs: [{ file: { text: 'a' } }, { file: { text: 'b' }, metadata: cyclic as never }],
      }),
    );
    expect(batch[0]).toMatchObject({ code: 'CYCLE', path: 'inputs[1].metadata.again[0]' });
    await expectNothingStored(e);
  });

  it('a refusal found after the inline text was stored leaves no file behind', async () => {
    const { engine: e, workflowId } = await withWorkflow();
    const error = await e.workflowRuns
      .create({
        workflow: { id: workflowId },
        file: { text: 'invoice' },
        outputs: [{ processorId: 'ex_unknown', output: { total: 1 } }],
      })
      .catch((x: unknown) => x);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    await expectNothingStored(e);
  });

  it('inline text has a size limit (1 MiB characters)', async () => {
    const { engine: e, workflowId } = await withWorkflow();
    const issues = await refusal(
      e.workflowRuns.create({
        workflow: { id: workflowId },
        file: { text: 'x'.repeat(2 * 1024 * 1024) },
      }),
    );
    expect(issues[0]).toMatchObject({ path: 'file.text' });
    await expectNothingStored(e);
  });
});

describe('step configs and names', () => {
  it('a BigInt or a cycle in a step config is refused at its path', async () => {
    engine = await createTestEngine({ storage: trackedStorage(), steps: [fakeStep('PARSE')] });
    const config: Record<string, unknown> = { limit: 1n };
    const issues = await refusal(
      engine.workflows.create({
        name: 'bad config',
        steps: steps([
          { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
          { name: 'parse', type: 'PARSE', config },
        ]),
      }),
    );
    expect(issues[0]).toMatchObject({ code: 'NOT_JSON', path: 'steps[1].config.limit' });
    expect((await engine.workflows.list()).data).toEqual([]);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('a step named %s is refused', async (name) => {
    engine = await createTestEngine({ storage: trackedStorage(), steps: [fakeStep('PARSE')] });
    const issues = await refusal(
      engine.workflows.create({
        name: 'reserved',
        steps: steps([
          { name: 'trigger', type: 'TRIGGER', next: [{ step: name }] },
          { name, type: 'PARSE' },
        ]),
      }),
    );
    expect(issues).toContainEqual(expect.objectContaining({ path: 'steps[1].name' }));
  });

  it('a reserved name as a key (a JSON-parsed __proto__, constructor) is refused', async () => {
    const { engine: e, workflowId } = await withWorkflow();
    for (const metadata of [JSON.parse('{"__proto__": {"admin": true}}'), { constructor: 1 }]) {
      const issues = await refusal(
        e.workflowRuns.create({ workflow: { id: workflowId }, file: { text: 'x' }, metadata }),
      );
      expect(issues[0]).toMatchObject({ code: 'RESERVED_NAME' });
      expect(issues[0]?.path).toMatch(/^metadata\[?\.?"?(__proto__|constructor)/);
    }
    await expectNothingStored(e);
  });
});
