/**
 * Whatever crosses the public API (issue 21): every method answers a value or rejects with an
 * EngineError carrying a code, never a raw exception; and a refused call changes nothing in
 * storage (no document, run, queue item or blob).
 */
import { EngineError } from '@docflow/engine';
import { createTestEngine, fakeStep, type TestEngine } from '@docflow/engine/testing';
import { memoryStorage, type StorageAdapter } from '@docflow/storage';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Memory storage that counts its writes (commits and blob puts and deletes). */
function countingStorage(): { storage: StorageAdapter; writes: () => number } {
  const storage = memoryStorage();
  let writes = 0;
  const commit = storage.commit.bind(storage);
  const { blobs } = storage;
  const put = blobs.put.bind(blobs);
  const del = blobs.delete.bind(blobs);
  Object.assign(storage, {
    commit: (...args: Parameters<typeof commit>) => {
      writes++;
      return commit(...args);
    },
  });
  Object.assign(blobs, {
    put: (...args: Parameters<typeof put>) => {
      writes++;
      return put(...args);
    },
    delete: (...args: Parameters<typeof del>) => {
      writes++;
      return del(...args);
    },
  });
  return { storage, writes: () => writes };
}

let engine: TestEngine;
let writes: () => number;
let workflowId = '';
let runId = '';
let extractorId = '';
let endpointId = '';

beforeAll(async () => {
  const counted = countingStorage();
  writes = counted.writes;
  engine = await createTestEngine({ storage: counted.storage, steps: [fakeStep('PARSE')] });
  const wf = await engine.workflows.create({
    name: 'property',
    steps: [
      { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
      { name: 'parse', type: 'PARSE' },
    ],
  });
  await engine.workflows.deploy(wf.id);
  workflowId = wf.id;
  runId = (await engine.workflowRuns.create({ workflow: { id: wf.id }, file: { text: 'x' } })).id;
  extractorId = (
    await engine.extractors.create({
      name: 'ex',
      config: { schema: { type: 'object', properties: { total: { type: 'number' } } } },
    } as never)
  ).id;
  endpointId = (
    await engine.webhookEndpoints.create({ url: 'https://hooks.example.com/a', name: 'a' } as never)
  ).id;
  await engine.idle();
});
afterAll(() => engine.stop());

/** Values of every kind JavaScript has, JSON and not, some cyclic. */
const hostile = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withNullPrototype: true,
      withSparseArray: true,
      withBoxedValues: true,
      withObjectString: true,
      maxDepth: 3,
    }),
    fc.constantFrom(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      () => 1,
      Symbol('s'),
      JSON.parse('{"__proto__": {"x": 1}}'),
      { constructor: 'x' },
    ),
    fc.constant(null).map(() => {
      const cyclic: Record<string, unknown> = { a: 1 };
      cyclic.self = cyclic;
      return cyclic;
    }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Run inputs that are valid but for one field, so that the checks below the schema are reached too. */
const nearlyValidRun = fc.record({
  field: fc.constantFrom('metadata', 'file', 'priority', 'outputs', 'secrets', 'workflow'),
  value: hostile,
});

type Call = (value: unknown) => Promise<unknown>;
const calls: Record<string, Call> = {
  'workflows.create': (v) => engine.workflows.create(v as never),
  'workflows.update': (v) => engine.workflows.update(workflowId, v as never),
  'workflows.get': (v) => engine.workflows.get(v as never),
  'workflowRuns.create': (v) => engine.workflowRuns.create(v as never),
  'workflowRuns.createBatch': (v) => engine.workflowRuns.createBatch(v as never),
  'workflowRuns.list': (v) => engine.workflowRuns.list(v as never),
  'parseRuns.create': (v) => engine.parseRuns.create(v as never),
  'extractRuns.batch': (v) => engine.extractRuns.batch(v as never),
  'files.upload': (v) => engine.files.upload(v as never),
  'extractors.create': (v) => engine.extractors.create(v as never),
  'webhookEndpoints.create': (v) => engine.webhookEndpoints.create(v as never),
  'webhookSubscriptions.create': (v) => engine.webhookSubscriptions.create(v as never),
  'workflowRuns.update': (v) => engine.workflowRuns.update(runId, v as never),
  'workflowRuns.review': (v) => engine.workflowRuns.review(runId, v as never),
  'workflowRuns.get': (v) => engine.workflowRuns.get(v as never),
  'workflowRuns.waitFor': (v) => engine.workflowRuns.waitFor(runId, v as never),
  'extractors.update': (v) => engine.extractors.update(extractorId, v as never),
  'extractors.publish': (v) => engine.extractors.publish(extractorId, v as never),
  'webhookEndpoints.update': (v) => engine.webhookEndpoints.update(endpointId, v as never),
  'webhookDeliveries.list': (v) => engine.webhookDeliveries.list(v as never),
  'files.list': (v) => engine.files.list(v as never),
  'parseRuns.list': (v) => engine.parseRuns.list(v as never),
  'classifyRuns.create': (v) => engine.classifyRuns.create(v as never),
  'parseRuns.get': (v) => engine.parseRuns.get(v as never),
  'files.get': (v) => engine.files.get(v as never),
  'files.download': (v) => engine.files.download(v as never),
  'extractors.get': (v) => engine.extractors.get(v as never),
  'webhookEndpoints.get': (v) => engine.webhookEndpoints.get(v as never),
  'webhookDeliveries.get': (v) => engine.webhookDeliveries.get(v as never),
  'workflows.getVersion': (v) => engine.workflows.getVersion(workflowId, v as never),
};

/** The call's outcome: a value, or a coded EngineError; anything else fails the property. */
async function outcome(call: () => Promise<unknown>): Promise<'value' | 'refused'> {
  try {
    await call();
    return 'value';
  } catch (error) {
    if (!(error instanceof EngineError) || typeof error.code !== 'string') {
      throw new Error(`not an EngineError with a code: ${String(error)}`, { cause: error });
    }
    return 'refused';
  }
}

describe('the public methods over hostile input', () => {
  it('answer a value or a coded EngineError, and a refusal writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(calls)), hostile, async (name, value) => {
        const before = writes();
        const result = await outcome(() => (calls[name] as Call)(value));
        if (result === 'refused') expect(writes(), name).toBe(before);
      }),
      { numRuns: Number(process.env.I21_RUNS ?? 400) },
    );
  });

  it('refuse run inputs broken in one field without storing their inline file', async () => {
    await fc.assert(
      fc.asyncProperty(nearlyValidRun, async ({ field, value }) => {
        const input = {
          workflow: { id: workflowId },
          file: { text: 'Invoice INV-1' },
          [field]: value,
        };
        const before = writes();
        const result = await outcome(() => engine.workflowRuns.create(input as never));
        if (result === 'refused') expect(writes()).toBe(before);
      }),
      { numRuns: 200 },
    );
    await engine.idle();
  });
});
