import { Extend } from 'extend-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.ts';

let t: TestServer;
let fileId: string;
beforeAll(async () => {
  t = await startTestServer();
  const file = await t
    .client()
    .files.upload(new File(['INVOICE\nInvoice number: 42\nTotal: 99.50 EUR\n'], 'invoice.txt'), {});
  fileId = file.id;
});
afterAll(async () => {
  await t.close();
});

const extractConfig = {
  schema: {
    type: 'object',
    properties: {
      invoice_number: { type: ['string', 'null'] },
      total: { type: ['number', 'null'] },
    },
  },
};
const classifyConfig = {
  classifications: [
    { id: 'invoice', type: 'invoice', description: 'An invoice with a total' },
    { id: 'other', type: 'other', description: 'Anything else' },
  ],
};
const splitConfig = {
  splitClassifications: [
    { id: 'invoice', type: 'invoice', description: 'An invoice' },
    { id: 'other', type: 'other', description: 'Anything else' },
  ],
};

describe('extractors, classifiers and splitters through the SDK', () => {
  it('creates, retrieves, updates, lists and publishes each kind; versions by number, draft, latest and id', async () => {
    const client = t.client();
    const extractor = await client.extractors.create({
      name: 'Invoices',
      config: extractConfig as never,
    });
    expect(extractor).toMatchObject({ object: 'extractor', name: 'Invoices' });
    expect(extractor.draftVersion).toMatchObject({
      object: 'extractor_version',
      version: 'draft',
      extractorId: extractor.id,
    });
    expect((await client.extractors.retrieve(extractor.id)).id).toBe(extractor.id);
    expect((await client.extractors.update(extractor.id, { name: 'Invoices v2' })).name).toBe(
      'Invoices v2',
    );
    expect((await client.extractors.list()).data.map((e) => e.id)).toContain(extractor.id);
    const v1 = await client.extractorVersions.create(extractor.id, {
      releaseType: 'major',
      description: 'first',
    });
    expect(v1).toMatchObject({ object: 'extractor_version', version: '1.0', description: 'first' });
    const v11 = await client.extractorVersions.create(extractor.id, { releaseType: 'minor' });
    expect(v11.version).toBe('1.1');
    expect((await client.extractorVersions.list(extractor.id)).data.map((v) => v.version)).toEqual([
      '1.1',
      '1.0',
    ]);
    expect((await client.extractorVersions.retrieve(extractor.id, '1.0')).id).toBe(v1.id);
    expect((await client.extractorVersions.retrieve(extractor.id, v1.id)).version).toBe('1.0');
    expect((await client.extractorVersions.retrieve(extractor.id, 'latest')).version).toBe('1.1');

    const classifier = await client.classifiers.create({
      name: 'Kinds',
      config: classifyConfig as never,
    });
    expect(classifier.draftVersion.classifierId).toBe(classifier.id);
    expect((await client.classifiers.retrieve(classifier.id)).name).toBe('Kinds');
    expect((await client.classifiers.update(classifier.id, { name: 'Doc kinds' })).name).toBe(
      'Doc kinds',
    );
    expect((await client.classifiers.list()).data.map((c) => c.id)).toContain(classifier.id);
    const cv = await client.classifierVersions.create(classifier.id, { releaseType: 'major' });
    expect((await client.classifierVersions.list(classifier.id)).data[0]?.id).toBe(cv.id);
    expect((await client.classifierVersions.retrieve(classifier.id, cv.id)).version).toBe('1.0');
    const clone = await client.classifiers.create({
      name: 'Copy',
      cloneClassifierId: classifier.id,
    });
    expect(clone.draftVersion.config).toMatchObject({
      classifications: classifyConfig.classifications,
    });

    const splitter = await client.splitters.create({
      name: 'Packets',
      config: splitConfig as never,
    });
    expect((await client.splitters.retrieve(splitter.id)).draftVersion.splitterId).toBe(
      splitter.id,
    );
    expect((await client.splitters.update(splitter.id, { name: 'Packets 2' })).name).toBe(
      'Packets 2',
    );
    expect((await client.splitters.list()).data?.map((s) => s.id)).toContain(splitter.id);
    const sv = await client.splitterVersions.create(splitter.id, { releaseType: 'minor' });
    expect(sv.version).toBe('1.0');
    expect((await client.splitterVersions.list(splitter.id)).data).toHaveLength(1);
    expect((await client.splitterVersions.retrieve(splitter.id, 'draft')).version).toBe('draft');

    // The legacy endpoint publishes any kind and answers { success, processorVersion }.
    const legacy = await client.processorVersion.create(extractor.id, { releaseType: 'major' });
    expect(legacy).toMatchObject({
      success: true,
      processorVersion: { version: '2.0', processorId: extractor.id },
    });
  });
});

describe('parse, extract, classify and split runs through the SDK', () => {
  it('createAndPoll reaches PROCESSED for every run kind', async () => {
    const client = t.client();
    const [parse, extract, classify, split] = await Promise.all([
      client.parseRuns.createAndPoll({ file: { id: fileId } }, { maxWaitMs: 30_000 }),
      client.extractRuns.createAndPoll(
        { file: { id: fileId }, config: extractConfig as never },
        { maxWaitMs: 30_000 },
      ),
      client.classifyRuns.createAndPoll(
        { file: { id: fileId }, config: classifyConfig as never },
        { maxWaitMs: 30_000 },
      ),
      client.splitRuns.createAndPoll(
        { file: { id: fileId }, config: splitConfig as never },
        { maxWaitMs: 30_000 },
      ),
    ]);
    expect(parse).toMatchObject({ object: 'parse_run', status: 'PROCESSED' });
    expect(parse.output?.chunks[0]?.content).toContain('Invoice number: 42');
    expect(extract).toMatchObject({ object: 'extract_run', status: 'PROCESSED' });
    expect(classify).toMatchObject({ object: 'classify_run', status: 'PROCESSED' });
    expect(split).toMatchObject({ object: 'split_run', status: 'PROCESSED' });
  });

  it('runs a saved extractor by reference, synchronously, and lists by extractorId', async () => {
    const client = t.client();
    const extractor = await client.extractors.create({
      name: 'Totals',
      config: extractConfig as never,
    });
    await client.extractorVersions.create(extractor.id, { releaseType: 'major' });
    const run = await client.extract({
      file: { id: fileId },
      extractor: { id: extractor.id, version: '1.0' },
    });
    expect(run).toMatchObject({ status: 'PROCESSED', extractor: { id: extractor.id } });
    const listed = await client.extractRuns.list({ extractorId: extractor.id });
    expect(listed.data.map((r) => r.id)).toEqual([run.id]);
    expect((listed.data[0] as unknown as Record<string, unknown>).output).toBeUndefined();
  });

  it('answers the synchronous endpoints with the finished run', async () => {
    const client = t.client();
    const [parsed, classified, split] = await Promise.all([
      client.parse({ file: { id: fileId } }),
      client.classify({ file: { id: fileId }, config: classifyConfig as never }),
      client.split({ file: { id: fileId }, config: splitConfig as never }),
    ]);
    expect(parsed.status).toBe('PROCESSED');
    expect(classified.status).toBe('PROCESSED');
    expect(split.status).toBe('PROCESSED');
  });

  it('serves parse output behind a presigned URL with responseType=url', async () => {
    const client = t.client();
    const run = await client.parse({ file: { id: fileId }, responseType: 'url' });
    expect(run.output).toBeNull();
    expect(run.outputUrl).toMatch(new RegExp(`^${t.origin}/presigned/parse_runs/`));
    const output = (await (await fetch(run.outputUrl as string)).json()) as { chunks: unknown[] };
    expect(output.chunks.length).toBeGreaterThan(0);
    const again = await client.parseRuns.retrieve(run.id, { responseType: 'url' });
    expect(again.outputUrl).toMatch(/signature=/);
    expect((await client.parseRuns.retrieve(run.id)).output).not.toBeNull();
  });

  it('retrieves, lists, cancels, and batches runs of each kind; batch runs aggregate', async () => {
    const client = t.client();
    const parseBatch = await client.parseRuns.createBatch({
      inputs: [{ file: { id: fileId } }, { file: { id: fileId }, metadata: { n: 2 } }],
    });
    expect(parseBatch).toMatchObject({ object: 'batch_run', runCount: 2 });
    expect(parseBatch.id).toMatch(/^bpar_/);
    const extractor = await client.extractors.create({
      name: 'Batch',
      config: extractConfig as never,
    });
    const extractBatch = await client.extractRuns.createBatch({
      extractor: { id: extractor.id, version: 'draft' },
      inputs: [{ file: { id: fileId } }, { file: { id: fileId } }, { file: { id: fileId } }],
    });
    const classifier = await client.classifiers.create({
      name: 'B',
      config: classifyConfig as never,
    });
    const classifyBatch = await client.classifyRuns.createBatch({
      classifier: { id: classifier.id, version: 'draft' },
      inputs: [{ file: { id: fileId } }],
    });
    const splitter = await client.splitters.create({ name: 'B', config: splitConfig as never });
    const splitBatch = await client.splitRuns.createBatch({
      splitter: { id: splitter.id, version: 'draft' },
      inputs: [{ file: { id: fileId } }],
    });
    for (const [batch, n] of [
      [parseBatch, 2],
      [extractBatch, 3],
      [classifyBatch, 1],
      [splitBatch, 1],
    ] as const) {
      const got = await client.batchRuns.get(batch.id);
      expect(got).toMatchObject({ object: 'batch_run', id: batch.id, runCount: n });
      expect(['PENDING', 'PROCESSING', 'PROCESSED']).toContain(got.status);
    }
    const legacy = await client.batchProcessorRun.get(extractBatch.id);
    expect(legacy).toMatchObject({
      success: true,
      batchProcessorRun: { id: extractBatch.id, processorId: extractor.id, runCount: 3 },
    });

    const parses = await client.parseRuns.list({ batchId: parseBatch.id });
    expect(parses.data).toHaveLength(2);
    const one = await client.parseRuns.retrieve(parses.data[0]?.id as string);
    expect(one.batchId).toBe(parseBatch.id);
    expect((await client.extractRuns.list({ batchId: extractBatch.id })).data).toHaveLength(3);
    const classifyRun = (await client.classifyRuns.list({ batchId: classifyBatch.id })).data[0];
    expect((await client.classifyRuns.retrieve(classifyRun?.id as string)).object).toBe(
      'classify_run',
    );
    const splitRun = (await client.splitRuns.list({ batchId: splitBatch.id })).data[0];
    expect((await client.splitRuns.retrieve(splitRun?.id as string)).object).toBe('split_run');

    // Cancel: a run still working is cancelled; one that ended is a 422 (never 409).
    const fresh = await client.extractRuns.create({
      file: { id: fileId },
      config: extractConfig as never,
    });
    const cancelled = (await client.extractRuns.cancel(fresh.id).catch((e: unknown) => e)) as
      | Error
      | { status: string };
    if (cancelled instanceof Error)
      expect(cancelled).toBeInstanceOf(Extend.UnprocessableEntityError);
    else expect(cancelled.status).toBe('CANCELLED');
    const done = await client.parseRuns.createAndPoll({ file: { id: fileId } });
    await expect(client.parseRuns.cancel(done.id)).rejects.toBeInstanceOf(
      Extend.UnprocessableEntityError,
    );
    const classified = await client.classifyRuns.createAndPoll({
      file: { id: fileId },
      config: classifyConfig as never,
    });
    await expect(client.classifyRuns.cancel(classified.id)).rejects.toBeInstanceOf(
      Extend.UnprocessableEntityError,
    );
    const splitDone = await client.splitRuns.createAndPoll({
      file: { id: fileId },
      config: splitConfig as never,
    });
    await expect(client.splitRuns.cancel(splitDone.id)).rejects.toBeInstanceOf(
      Extend.UnprocessableEntityError,
    );
  });

  it('takes files by URL for every run kind, and saved processors with overrideConfig', async () => {
    const client = t.client();
    // A URL the server itself serves: the file's presigned URL.
    const url = (await client.files.retrieve(fileId)).presignedUrl as string;
    const extractor = await client.extractors.create({
      name: 'Override',
      config: extractConfig as never,
    });
    const [parse, extract, classify, split] = await Promise.all([
      client.parseRuns.createAndPoll({ file: { url, name: 'by-url.txt' } }),
      client.extractRuns.createAndPoll({
        file: { url },
        extractor: {
          id: extractor.id,
          version: 'draft',
          overrideConfig: { extractionRules: 'Totals in EUR' },
        },
      }),
      client.classifyRuns.createAndPoll({ file: { url }, config: classifyConfig as never }),
      client.splitRuns.createAndPoll({ file: { url }, config: splitConfig as never }),
    ]);
    expect(parse).toMatchObject({ status: 'PROCESSED', file: { name: 'by-url.txt' } });
    expect(parse.output?.chunks[0]?.content).toContain('Invoice number: 42');
    expect(extract).toMatchObject({
      status: 'PROCESSED',
      config: { extractionRules: 'Totals in EUR' },
    });
    expect(classify.status).toBe('PROCESSED');
    expect(split.status).toBe('PROCESSED');
  });

  it('deletes runs of every kind', async () => {
    const client = t.client();
    const [parse, extract, classify, split] = await Promise.all([
      client.parseRuns.createAndPoll({ file: { id: fileId } }),
      client.extractRuns.createAndPoll({ file: { id: fileId }, config: extractConfig as never }),
      client.classifyRuns.createAndPoll({ file: { id: fileId }, config: classifyConfig as never }),
      client.splitRuns.createAndPoll({ file: { id: fileId }, config: splitConfig as never }),
    ]);
    expect((await client.parseRuns.delete(parse.id)).id).toBe(parse.id);
    expect((await client.extractRuns.delete(extract.id)).id).toBe(extract.id);
    expect((await client.classifyRuns.delete(classify.id)).id).toBe(classify.id);
    expect((await client.splitRuns.delete(split.id)).id).toBe(split.id);
    await expect(client.parseRuns.retrieve(parse.id)).rejects.toBeInstanceOf(Extend.NotFoundError);
    await expect(client.extractRuns.retrieve(extract.id)).rejects.toBeInstanceOf(
      Extend.NotFoundError,
    );
    await expect(client.classifyRuns.retrieve(classify.id)).rejects.toBeInstanceOf(
      Extend.NotFoundError,
    );
    await expect(client.splitRuns.retrieve(split.id)).rejects.toBeInstanceOf(Extend.NotFoundError);
  });

  it('runs an extract run over a package of files', async () => {
    const client = t.client();
    const second = await client.files.upload(
      new File(['Receipt\nTotal: 5.00 EUR'], 'receipt.txt'),
      {},
    );
    const url = (await client.files.retrieve(second.id)).presignedUrl as string;
    const run = await client.extractRuns.createAndPoll({
      package: { files: [{ id: fileId }, { id: second.id }, { url }] },
      config: extractConfig as never,
    });
    expect(run.status).toBe('PROCESSED');
    expect(run.files?.map((f) => f.id).slice(0, 2)).toEqual([fileId, second.id]);
    expect(run.files).toHaveLength(3);
  });
});

describe('lists of processors and runs through the SDK', () => {
  it('filters runs by status, processor and file name, in either order, page by page', async () => {
    // Workspace B: no other test of this file works there, so the lists are exact.
    const client = t.client(t.keys.b);
    const invoice = await client.files.upload(
      new File(['Total: 1.00 EUR'], 'march-invoice.txt'),
      {},
    );
    const receipt = await client.files.upload(new File(['Total: 2.00 EUR'], 'receipt.txt'), {});
    const older = await client.extractors.create({ name: 'Older', config: extractConfig as never });
    const newer = await client.extractors.create({ name: 'Newer', config: extractConfig as never });
    const runs: string[] = [];
    for (const [file, extractor] of [
      [invoice, older],
      [receipt, older],
      [invoice, newer],
    ] as const) {
      const run = await client.extractRuns.createAndPoll({
        file: { id: file.id },
        extractor: { id: extractor.id, version: 'draft' },
      });
      expect(run.status).toBe('PROCESSED');
      runs.push(run.id);
    }
    const ids = (page: { data: { id: string }[] }) => page.data.map((r) => r.id);

    expect(ids(await client.extractRuns.list({ status: 'PROCESSED' }))).toEqual(
      [...runs].reverse(),
    );
    expect(ids(await client.extractRuns.list({ status: 'FAILED' }))).toEqual([]);
    expect(
      ids(
        await client.extractRuns.list({
          extractorId: older.id,
          sortBy: 'createdAt',
          sortDir: 'asc',
        }),
      ),
    ).toEqual(runs.slice(0, 2));
    expect(ids(await client.extractRuns.list({ fileNameContains: 'INVOICE' }))).toEqual([
      runs[2],
      runs[0],
    ]);
    expect(ids(await client.extractRuns.list({ fileNameContains: receipt.id }))).toEqual([runs[1]]);
    expect(ids(await client.extractRuns.list({ source: 'API', maxPageSize: 1 }))).toEqual([
      runs[2],
    ]);
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.extractRuns.list({
        maxPageSize: 2,
        sortDir: 'asc',
        ...(token ? { nextPageToken: token } : {}),
      });
      seen.push(...ids(page));
      token = page.nextPageToken;
    } while (token);
    expect(seen).toEqual(runs);

    const parsed = await client.parseRuns.createAndPoll({ file: { id: receipt.id } });
    expect(
      ids(await client.parseRuns.list({ status: 'PROCESSED', fileNameContains: 'receipt' })),
    ).toEqual([parsed.id]);
    const sourceId = client.parseRuns.list({ sourceId: 'wf_1' });
    await expect(sourceId).rejects.toBeInstanceOf(Extend.BadRequestError);
    await expect(sourceId).rejects.toMatchObject({
      body: { issues: [{ path: 'query.sourceId' }] },
    });

    // Processors, versions and files list oldest first on request too.
    const extractors = await client.extractors.list({ sortBy: 'createdAt', sortDir: 'asc' });
    expect(ids(extractors)).toEqual([older.id, newer.id]);
    expect(ids(await client.extractors.list({ maxPageSize: 1 }))).toEqual([newer.id]);
    await client.extractorVersions.create(older.id, { releaseType: 'major' });
    await client.extractorVersions.create(older.id, { releaseType: 'minor' });
    const versions = await client.extractorVersions.list(older.id, { sortDir: 'asc' });
    expect(versions.data.map((v) => v.version)).toEqual(['1.0', '1.1']);
    expect(ids(await client.files.list({ sortDir: 'asc' }))).toEqual([invoice.id, receipt.id]);
  });
});
