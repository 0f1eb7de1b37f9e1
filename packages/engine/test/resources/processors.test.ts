import { join } from 'node:path';
import { type JsonObject, memoryStorage, type StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessorKind } from '../../src/definition/workflow-definition.ts';
import { EngineError } from '../../src/errors.ts';
import { createProcessorsService } from '../../src/resources/processors.ts';
import { tempDir } from '../helpers.ts';
import {
  countDocuments,
  deliveredTypes,
  type RecordingContext,
  recordingContext,
  VALID_CONFIGS,
} from '../processors/helpers.ts';

const KINDS = [
  { kind: 'extractor', prefix: 'ex_', type: 'EXTRACT' },
  { kind: 'classifier', prefix: 'cl_', type: 'CLASSIFY' },
  { kind: 'splitter', prefix: 'spl_', type: 'SPLITTER' },
] as const;

/** The error `promise` rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return error as EngineError;
  }
  throw new Error('expected a rejection');
}

const paths = (error: EngineError) => (error.details.issues ?? []).map((i) => i.path);

const STORAGES = [
  ['memory', () => memoryStorage()],
  ['sqlite', () => sqliteStorage({ path: join(tempDir('docflow-proc-'), 'p.db') })],
] as const;

let makeStorage: () => StorageAdapter = () => memoryStorage();

async function setup(kind: ProcessorKind) {
  const rec = await recordingContext(makeStorage());
  return { ...rec, service: createProcessorsService(rec.ctx, { kind }) };
}

describe.each(STORAGES)('on %s storage', (_name, factory) => {
  beforeAll(() => {
    makeStorage = factory;
  });
  afterAll(() => {
    makeStorage = () => memoryStorage();
  });

  describe.each(KINDS)('$kind service', ({ kind, prefix, type }) => {
    const config = VALID_CONFIGS[kind] as unknown as JsonObject;

    it('creates a processor with the interface shape and gets it back', async () => {
      const { service } = await setup(kind);
      const created = await service.create({ name: 'Invoices', config });
      expect(created).toEqual({
        object: kind,
        id: expect.stringMatching(new RegExp(`^${prefix}[0-9a-z]{20}$`)),
        name: 'Invoices',
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-01T10:00:00.000Z',
        config: { type, ...config },
        latestVersion: null,
      });
      expect(await service.get(created.id)).toEqual(created);
    });

    it('gives a minimal valid draft when created without a config', async () => {
      const { service } = await setup(kind);
      const created = await service.create({ name: 'Empty' });
      expect(created.config.type).toBe(type);
      const { processorVersion } = await service.publish(created.id, { releaseType: 'minor' });
      expect(processorVersion.config).toEqual(created.config);
    });

    it('numbers versions 1.0, 1.1, 1.2, 2.0, 2.1 and snapshots each config', async () => {
      const { service, clock } = await setup(kind);
      const p = await service.create({ name: 'P', config });
      const versions: string[] = [];
      for (const releaseType of ['major', 'minor', 'minor', 'major', 'minor'] as const) {
        await clock.advance(1000);
        const result = await service.publish(p.id, { releaseType, description: releaseType });
        expect(result.success).toBe(true);
        versions.push(result.processorVersion.version);
      }
      expect(versions).toEqual(['1.0', '1.1', '1.2', '2.0', '2.1']);
      const latest = await service.getVersion(p.id, 'latest');
      expect(latest).toEqual({
        object: 'document_processor_version',
        id: expect.stringMatching(/^exv_/),
        processorId: p.id,
        processorType: type,
        version: '2.1',
        config: { type, ...config },
        createdAt: '2026-03-01T10:00:05.000Z',
        updatedAt: '2026-03-01T10:00:05.000Z',
        processorName: 'P',
        description: 'minor',
      });
      expect((await service.get(p.id)).latestVersion).toEqual(latest);
      expect((await service.getVersion(p.id, '1.1')).version).toBe('1.1');
      const listed = await service.listVersions(p.id, { maxPageSize: 3 });
      expect(listed.data.map((v) => v.version)).toEqual(['2.1', '2.0', '1.2']);
      const rest = await service.listVersions(p.id, {
        maxPageSize: 3,
        ...(listed.nextPageToken ? { nextPageToken: listed.nextPageToken } : {}),
      });
      expect(rest.data.map((v) => v.version)).toEqual(['1.1', '1.0']);
      expect(rest.nextPageToken).toBeUndefined();
    });

    it('first publish is 1.0 whatever the release type', async () => {
      const { service } = await setup(kind);
      const p = await service.create({ name: 'P', config });
      const { processorVersion } = await service.publish(p.id, { releaseType: 'minor' });
      expect(processorVersion.version).toBe('1.0');
    });

    it('publishing never changes published versions; the draft moves on alone', async () => {
      const { service } = await setup(kind);
      const p = await service.create({ name: 'P', config });
      const v1 = (await service.publish(p.id, { releaseType: 'major' })).processorVersion;
      const changed =
        kind === 'extractor'
          ? { schema: { type: 'object', properties: { date: { type: 'string' } } } }
          : kind === 'classifier'
            ? { classifications: [{ id: 'x', type: 'other' }] }
            : { splitClassifications: [{ id: 'x', type: 'other' }] };
      await service.update(p.id, { config: changed as JsonObject });
      const draft = await service.getVersion(p.id, 'draft');
      expect(draft.config).toEqual({ type, ...changed });
      expect(draft.version).toBe('draft');
      expect(await service.getVersion(p.id, '1.0')).toEqual(v1);
      const v2 = (await service.publish(p.id, { releaseType: 'minor' })).processorVersion;
      expect(v2.config).toEqual({ type, ...changed });
      expect(await service.getVersion(p.id, '1.0')).toEqual(v1);
    });

    it('publishes a given config without touching the draft', async () => {
      const { service } = await setup(kind);
      const p = await service.create({ name: 'P' });
      const { processorVersion } = await service.publish(p.id, { releaseType: 'major', config });
      expect(processorVersion.config).toEqual({ type, ...config });
      expect((await service.getVersion(p.id, 'draft')).config).toEqual(p.config);
    });

    it('rejects a publish config of another kind, naming config.type', async () => {
      const { service, storage } = await setup(kind);
      const p = await service.create({ name: 'P', config });
      const other = KINDS.find((k) => k.kind !== kind);
      const error = await rejection(
        service.publish(p.id, {
          releaseType: 'major',
          config: { ...config, type: other?.type ?? 'X' },
        }),
      );
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(paths(error)).toContain('config.type');
      expect(await countDocuments(storage, 'processorVersions')).toBe(0);
    });

    it('rejects bad publish requests and stores nothing', async () => {
      const { service, storage, published } = await setup(kind);
      const p = await service.create({ name: 'P', config });
      const before = published.length;
      const error = await rejection(
        service.publish(p.id, { releaseType: 'patch', description: 3 } as never),
      );
      expect(paths(error)).toEqual(['releaseType', 'description']);
      expect(await countDocuments(storage, 'processorVersions')).toBe(0);
      expect(published.length).toBe(before);
      expect((await service.get(p.id)).latestVersion).toBeNull();
    });

    it('lists by kind, newest first, with nameContains and paging', async () => {
      const { service, ctx } = await setup(kind);
      const others = createProcessorsService(ctx, {
        kind: kind === 'extractor' ? 'classifier' : 'extractor',
      });
      await others.create({ name: 'Invoice of the other kind' });
      for (const name of ['Invoice A', 'Receipt', 'invoice B']) {
        await service.create({ name, config });
      }
      const all = await service.list();
      expect(all.object).toBe('list');
      expect(all.data.map((p) => p.name)).toEqual(['invoice B', 'Receipt', 'Invoice A']);
      const matching = await service.list({ nameContains: 'INVOICE' });
      expect(matching.data.map((p) => p.name)).toEqual(['invoice B', 'Invoice A']);
      const first = await service.list({ maxPageSize: 2 });
      expect(first.data).toHaveLength(2);
      expect(first.nextPageToken).toBeDefined();
      const second = await service.list({
        maxPageSize: 2,
        ...(first.nextPageToken ? { nextPageToken: first.nextPageToken } : {}),
      });
      expect(second.data.map((p) => p.name)).toEqual(['Invoice A']);
      await expect(service.list({ maxPageSize: 0 })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    });

    it('updates name and draft, emitting updated and draft.updated in one commit', async () => {
      const { service, storage, published, prepared, clock } = await setup(kind);
      const p = await service.create({ name: 'Old', config });
      await clock.advance(60_000);
      const renamed = await service.update(p.id, { name: 'New' });
      expect(renamed.name).toBe('New');
      expect(renamed.updatedAt).toBe('2026-03-01T10:01:00.000Z');
      expect(renamed.createdAt).toBe(p.createdAt);
      expect(published.map((e) => e.eventType)).toEqual([`${kind}.created`, `${kind}.updated`]);
      expect(published[1]?.payload).toEqual(renamed);

      const newConfig = { ...config, baseProcessor: baseProcessorOf(kind) } as JsonObject;
      const both = await service.update(p.id, { name: 'Newer', config: newConfig });
      expect(both.config).toEqual({ type, ...newConfig });
      expect(published.slice(2).map((e) => e.eventType)).toEqual([
        `${kind}.updated`,
        `${kind}.draft.updated`,
      ]);
      const draftEvent = published[3]?.payload as { version?: string; config?: unknown };
      expect(draftEvent.version).toBe('draft');
      expect(draftEvent.config).toEqual({ type, ...newConfig });
      expect(prepared.every((p2) => p2.resource?.type === kind && p2.resource.id === p.id)).toBe(
        true,
      );
      expect(await deliveredTypes(storage)).toEqual(published.map((e) => e.eventType));
    });

    it('an update that changes nothing emits nothing and keeps updatedAt', async () => {
      const { service, published, clock } = await setup(kind);
      const p = await service.create({ name: 'Same', config });
      await clock.advance(1000);
      // Same config with keys in another order and the type spelled out: still no change.
      const reordered = Object.fromEntries(Object.entries({ type, ...config }).reverse());
      const same = await service.update(p.id, { name: 'Same', config: reordered as JsonObject });
      expect(same).toEqual(p);
      expect(published).toHaveLength(1);
    });

    it('rejects bad updates naming each path, and changes nothing', async () => {
      const { service, published, storage } = await setup(kind);
      const p = await service.create({ name: 'P', config });
      const error = await rejection(
        service.update(p.id, { name: '', config: { bogus: true }, extra: 1 } as never),
      );
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(paths(error)).toEqual(expect.arrayContaining(['extra', 'name', 'config.bogus']));
      expect(await service.get(p.id)).toEqual(p);
      expect(published).toHaveLength(1);
      expect(await deliveredTypes(storage)).toEqual([`${kind}.created`]);
    });

    it('deletes, emitting deleted; the processor is then gone', async () => {
      const { service, published, storage } = await setup(kind);
      const p = await service.create({ name: 'P', config });
      await service.publish(p.id, { releaseType: 'major' });
      expect(await service.delete(p.id)).toEqual({ object: kind, id: p.id, deleted: true });
      expect(published.map((e) => e.eventType)).toEqual([
        `${kind}.created`,
        `${kind}.version.published`,
        `${kind}.deleted`,
      ]);
      expect(published[2]?.payload).toMatchObject({ id: p.id, object: kind });
      expect(await deliveredTypes(storage)).toEqual(published.map((e) => e.eventType));
      await expect(service.get(p.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(service.delete(p.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(service.resolve({ id: p.id, version: '1.0' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      expect((await service.list()).data).toEqual([]);
    });

    it('emits created and version.published with their deliveries in the same commit', async () => {
      const { service, published, storage } = await setup(kind);
      const p = await service.create({ name: 'P', config });
      expect(published[0]?.payload).toEqual(p);
      const { processorVersion } = await service.publish(p.id, {
        releaseType: 'major',
        description: 'first',
      });
      expect(published[1]).toMatchObject({
        eventType: `${kind}.version.published`,
        payload: processorVersion,
      });
      const deliveries = await storage.listDeliveries({ order: 'asc' });
      expect(deliveries.items.map((d) => d.eventId)).toEqual(published.map((e) => e.eventId));
    });

    it('getVersion: NOT_FOUND for unknown versions, VALIDATION_FAILED for malformed ones', async () => {
      const { service } = await setup(kind);
      const p = await service.create({ name: 'P', config });
      await expect(service.getVersion(p.id, 'latest')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(service.getVersion(p.id, '1.0')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      for (const bad of ['1', 'v1.0', '01.0', '1.0.0', '']) {
        const error = await rejection(service.getVersion(p.id, bad));
        expect(error.code).toBe('VALIDATION_FAILED');
        expect(error.details.issues?.[0]).toMatchObject({
          code: 'INVALID_VERSION',
          path: 'version',
        });
      }
      await expect(service.getVersion('nope', 'draft')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(service.listVersions('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('does not find processors of another kind by id', async () => {
      const { service, ctx } = await setup(kind);
      const other = createProcessorsService(ctx, {
        kind: kind === 'splitter' ? 'classifier' : 'splitter',
      });
      const foreign = await other.create({ name: 'foreign' });
      await expect(service.get(foreign.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(service.update(foreign.id, { name: 'x' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('resolves draft, latest and exact versions, with run summaries', async () => {
      const { service } = await setup(kind);
      const p = await service.create({ name: 'P', config });
      const draftOnly = await service.resolve({ id: p.id });
      expect(draftOnly.version.version).toBe('draft');
      const v1 = (await service.publish(p.id, { releaseType: 'major', description: 'd' }))
        .processorVersion;
      await service.update(p.id, { name: 'P2' });
      const latest = await service.resolve({ id: p.id, version: 'latest' });
      expect(latest.version).toEqual(v1);
      expect(latest.config).toEqual(v1.config);
      expect(latest.processor).toEqual({
        object: kind,
        id: p.id,
        name: 'P2',
        createdAt: p.createdAt,
        updatedAt: expect.any(String),
      });
      const summaryPrefix = { extractor: 'exv_', classifier: 'clv_', splitter: 'splv_' }[kind];
      expect(latest.versionSummary).toEqual({
        object: `${kind}_version`,
        id: `${summaryPrefix}${v1.id.slice(4)}`,
        description: 'd',
        version: '1.0',
        [`${kind}Id`]: p.id,
        createdAt: v1.createdAt,
        createdBy: null,
      });
      expect((await service.resolve({ id: p.id, version: 'draft' })).version.version).toBe('draft');
      const error = await rejection(service.resolve({ id: p.id, version: '9.9' }, 'config.x'));
      expect(error.code).toBe('NOT_FOUND');
      expect(paths(error)).toEqual(['config.x.version']);
    });
  });
});

function baseProcessorOf(kind: ProcessorKind): string {
  return {
    extractor: 'extraction_light',
    classifier: 'classification_light',
    splitter: 'splitting_light',
  }[kind];
}

describe('create: bad input stores nothing', () => {
  it.each(KINDS)('$kind: invalid name and config are reported together', async ({ kind }) => {
    const { service, storage, published } = await setup(kind);
    const error = await rejection(service.create({ name: '  ', config: { nope: 1 } } as never));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(paths(error)).toEqual(expect.arrayContaining(['name', 'config.nope']));
    expect(await countDocuments(storage, 'processors')).toBe(0);
    expect(published).toEqual([]);
    expect(await deliveredTypes(storage)).toEqual([]);
  });

  it.each(['classifier', 'splitter'] as const)(
    '%s: cloneExtractorId and generate are extractor-only',
    async (kind) => {
      const { service } = await setup(kind);
      const error = await rejection(
        service.create({ name: 'x', cloneExtractorId: 'ex_1', generate: { files: [] } } as never),
      );
      expect(paths(error)).toEqual(['cloneExtractorId', 'generate']);
      expect(error.details.issues?.map((i) => i.code)).toEqual(['NOT_ALLOWED', 'NOT_ALLOWED']);
    },
  );

  it('rejects input that is not an object', async () => {
    const { service } = await setup('extractor');
    await expect(service.create(null as never)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});

describe('extractor clone', () => {
  it('copies the source draft config; the copies are independent', async () => {
    const { service, published } = await setup('extractor');
    const source = await service.create({ name: 'Source', config: VALID_CONFIGS.extractor });
    const clone = await service.create({ name: 'Clone', cloneExtractorId: source.id });
    expect(clone.id).not.toBe(source.id);
    expect(clone.config).toEqual(source.config);
    expect(clone.latestVersion).toBeNull();
    await service.update(clone.id, {
      config: { schema: { type: 'object', properties: { other: { type: 'string' } } } },
    });
    expect((await service.get(source.id)).config).toEqual(source.config);
    expect(published.map((e) => e.eventType)).toEqual([
      'extractor.created',
      'extractor.created',
      'extractor.draft.updated',
    ]);
  });

  it('NOT_FOUND for an unknown source (or one of another kind), nothing stored', async () => {
    const { service, storage, ctx } = await setup('extractor');
    const error = await rejection(service.create({ name: 'C', cloneExtractorId: 'ex_missing' }));
    expect(error.code).toBe('NOT_FOUND');
    expect(paths(error)).toEqual(['cloneExtractorId']);
    const classifier = await createProcessorsService(ctx, { kind: 'classifier' }).create({
      name: 'cl',
    });
    await expect(
      service.create({ name: 'C', cloneExtractorId: classifier.id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await countDocuments(storage, 'processors')).toBe(1);
  });

  it('cannot be combined with config', async () => {
    const { service } = await setup('extractor');
    const error = await rejection(
      service.create({
        name: 'C',
        cloneExtractorId: 'ex_x',
        config: VALID_CONFIGS.extractor as unknown as JsonObject,
      }),
    );
    expect(error.details.issues).toEqual([
      expect.objectContaining({ code: 'NOT_COMBINABLE', path: 'cloneExtractorId' }),
    ]);
  });
});

describe('extractor generate', () => {
  it('validates the shape first, naming every path', async () => {
    const { service, storage } = await setup('extractor');
    const error = await rejection(
      service.create({
        name: 'G',
        config: VALID_CONFIGS.extractor as unknown as JsonObject,
        generate: {
          files: [{ id: 'file_1' }, { url: 'ftp://x' }, { id: 'a', url: 'https://x' }, {}],
          instructions: 'x'.repeat(2501),
        } as never,
      }),
    );
    expect(paths(error)).toEqual([
      'generate.files[1].url',
      'generate.files[2]',
      'generate.files[3]',
      'generate.instructions',
      'generate',
    ]);
    const tooMany = await rejection(
      service.create({
        name: 'G',
        generate: { files: Array.from({ length: 6 }, (_, i) => ({ id: `file_${i}` })) },
      }),
    );
    expect(paths(tooMany)).toEqual(['generate.files']);
    const none = await rejection(service.create({ name: 'G', generate: { files: [] } }));
    expect(paths(none)).toEqual(['generate.files']);
    expect(await countDocuments(storage, 'processors')).toBe(0);
  });

  it('refuses a valid request without a schema generator, clearly', async () => {
    const { service, storage, published } = await setup('extractor');
    const error = await rejection(
      service.create({
        name: 'G',
        generate: { files: [{ id: 'file_1' }, { url: 'https://example.com/a.pdf' }] },
      }),
    );
    expect(error.code).toBe('INVALID_CONFIGURATION');
    expect(error.message).toMatch(/needs a model provider/);
    expect(error.details.issues).toEqual([
      expect.objectContaining({ code: 'SCHEMA_GENERATION_UNAVAILABLE', path: 'generate' }),
    ]);
    expect(await countDocuments(storage, 'processors')).toBe(0);
    expect(published).toEqual([]);
  });

  it('uses the generateSchema hook when given, and validates what it returns', async () => {
    const rec = await recordingContext();
    const seen: unknown[] = [];
    let answer: JsonObject = {
      type: 'object',
      properties: { total: { type: 'number' } },
    };
    const service = createProcessorsService(rec.ctx, {
      kind: 'extractor',
      async generateSchema(request) {
        seen.push(request);
        return answer;
      },
    });
    const created = await service.create({
      name: 'G',
      generate: { files: [{ id: 'file_1' }], instructions: 'totals only' },
    });
    expect(seen).toEqual([{ name: 'G', files: [{ id: 'file_1' }], instructions: 'totals only' }]);
    expect(created.config).toEqual({ type: 'EXTRACT', schema: answer });

    answer = { type: 'array' };
    const error = await rejection(
      service.create({ name: 'G', generate: { files: [{ id: 'f' }] } }),
    );
    expect(error.details.issues).toEqual([
      expect.objectContaining({ code: 'SCHEMA_GENERATION_FAILED', path: 'generate.schema.type' }),
    ]);
    expect(await countDocuments(rec.storage, 'processors')).toBe(1);
  });

  it('reports a failing generator as SCHEMA_GENERATION_FAILED, retryable', async () => {
    const rec = await recordingContext();
    const service = createProcessorsService(rec.ctx, {
      kind: 'extractor',
      generateSchema: async () => {
        throw new Error('model unavailable');
      },
    });
    const error = await rejection(
      service.create({ name: 'G', generate: { files: [{ id: 'f' }] } }),
    );
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/model unavailable/);
    expect(error.details.issues?.[0]?.code).toBe('SCHEMA_GENERATION_FAILED');
  });
});

describe('concurrency', () => {
  it('two publishes racing from one read yield distinct versions or a CONFLICT, never a duplicate', async () => {
    const { service } = await setup('classifier');
    const p = await service.create({ name: 'P', config: VALID_CONFIGS.classifier as never });
    const results = await Promise.allSettled([
      service.publish(p.id, { releaseType: 'minor' }),
      service.publish(p.id, { releaseType: 'minor' }),
    ]);
    const versions = results
      .filter((r) => r.status === 'fulfilled')
      .map(
        (r) =>
          (r as PromiseFulfilledResult<{ processorVersion: { version: string } }>).value
            .processorVersion.version,
      );
    expect(new Set(versions).size).toBe(versions.length);
    for (const r of results) {
      if (r.status === 'rejected')
        expect(r.reason).toMatchObject({ code: 'CONFLICT', retryable: true });
    }
    const listed = await service.listVersions(p.id);
    expect(listed.data.map((v) => v.version).sort()).toEqual([...versions].sort());
  });
});

describe('options', () => {
  it('rejects an unknown kind', async () => {
    const rec = await recordingContext();
    expect(() => createProcessorsService(rec.ctx, { kind: 'parser' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIGURATION' }),
    );
  });
});

describe('without an event sink', () => {
  it('works and raises nothing', async () => {
    const rec: RecordingContext = await recordingContext();
    const { events: _events, ...ctx } = rec.ctx;
    const service = createProcessorsService(ctx, { kind: 'splitter' });
    const p = await service.create({ name: 'S', config: VALID_CONFIGS.splitter as never });
    await service.publish(p.id, { releaseType: 'major' });
    expect(rec.published).toEqual([]);
    expect(await deliveredTypes(rec.storage)).toEqual([]);
  });
});

describe('publish re-checks the draft', () => {
  it('refuses a stored draft that no longer validates, naming draft.config paths', async () => {
    const { service, storage } = await setup('classifier');
    const p = await service.create({ name: 'P', config: VALID_CONFIGS.classifier as never });
    // A draft written under older rules: two `other` classifications.
    const stored = await storage.getDocument('processors', p.id);
    const data = stored?.data as { draft: { config: JsonObject } };
    await storage.commit({
      documents: [
        {
          collection: 'processors',
          id: p.id,
          parentId: 'classifier',
          name: 'P',
          data: {
            ...(stored?.data ?? {}),
            draft: {
              ...data.draft,
              config: {
                type: 'CLASSIFY',
                classifications: [
                  { id: 'a', type: 'other' },
                  { id: 'b', type: 'other' },
                ],
              },
            },
          } as JsonObject,
        },
      ],
    });
    const error = await rejection(service.publish(p.id, { releaseType: 'major' }));
    expect(error.details.issues).toEqual([
      expect.objectContaining({
        code: 'OTHER_CLASSIFICATION_COUNT',
        path: 'draft.config.classifications',
      }),
    ]);
    expect(await countDocuments(storage, 'processorVersions')).toBe(0);
  });
});
