import { createEngine, type Engine, type StepDefinition } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { afterEach, expect, it } from 'vitest';

let engine: Engine;
afterEach(async () => {
  await engine?.stop();
});

const invoice = `ACME Supplies Ltd.
INVOICE
Invoice number: INV-2026-0042
Invoice date: 2026-11-02
Customer: Northwind Traders
Total due: GBP 556.80
`;

it('runs PARSE → CLASSIFY → EXTRACT with builtinSteps() and a saved extractor', async () => {
  engine = createEngine({ steps: builtinSteps() });
  await engine.start();
  const extractor = await engine.extractors.create({
    name: 'Invoice fields',
    config: {
      schema: {
        type: 'object',
        properties: {
          invoice_number: { type: 'string', description: 'Invoice number' },
          invoice_date: { type: 'string', format: 'date', description: 'Invoice date' },
          customer: { type: 'string', description: 'Customer' },
        },
      },
    },
  });
  const published = await engine.extractors.publish(extractor.id, { releaseType: 'major' });
  const steps = [
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    { name: 'parse', type: 'PARSE', next: [{ step: 'classify' }] },
    {
      name: 'classify',
      type: 'CLASSIFY',
      config: {
        classifierConfig: {
          classifications: [
            {
              id: 'invoice',
              type: 'invoice',
              description: 'An invoice: invoice number, amount due, customer',
            },
            { id: 'letter', type: 'letter', description: 'A letter: dear, sincerely' },
            { id: 'other', type: 'other', description: 'Anything else' },
          ],
        },
      },
      next: [{ step: 'fields', classificationId: 'invoice' }],
    },
    {
      name: 'fields',
      type: 'EXTRACT',
      config: { extractor: { id: extractor.id, version: published.processorVersion.version } },
    },
  ] as unknown as StepDefinition[];
  const wf = await engine.workflows.create({ name: 'invoices', steps });
  await engine.workflows.deploy(wf.id);
  const run = await engine.workflowRuns.create({
    workflow: { id: wf.id },
    file: { text: invoice, name: 'inv.txt' },
  });
  const done = await engine.workflowRuns.waitFor(run.id, { timeoutMs: 20_000 });
  expect(
    done.status,
    JSON.stringify(done.stepRuns.map((s) => [s.step.name, s.status, s.failureMessage])),
  ).toBe('PROCESSED');
  const classify = done.stepRuns.find((s) => s.step.name === 'classify')?.result as {
    classifyRun: { output: { id: string } };
  };
  expect(classify.classifyRun.output.id).toBe('invoice');
  const fields = done.stepRuns.find((s) => s.step.name === 'fields')?.result as {
    extractRun: { output: { value: Record<string, unknown> } };
  };
  expect(fields.extractRun.output.value).toMatchObject({
    invoice_number: 'INV-2026-0042',
    invoice_date: '2026-11-02',
    customer: 'Northwind Traders',
  });
});

it('runs standalone extract, classify and split runs with builtinSteps()', async () => {
  engine = createEngine({ steps: builtinSteps() });
  await engine.start();
  const events: string[] = [];
  engine.on('*', (e) => {
    events.push(e.eventType);
  });
  const file = await engine.files.upload({ name: 'inv.txt', data: invoice });
  // A parse run reports the ParseConfig it used, the interface's defaults applied.
  const parsed = await engine.parseRuns.create({
    file: { id: file.id },
    config: { advancedOptions: { pageRanges: [{ start: 1 }] } },
  });
  expect(parsed.config).toMatchObject({
    target: 'markdown',
    chunkingStrategy: { type: 'page' },
    engine: 'parse_performance',
    advancedOptions: { pageRanges: [{ start: 1, end: 750 }], pageRotationEnabled: true },
  });
  expect((await engine.parseRuns.create({ file: { id: file.id } })).config).toEqual({
    target: 'markdown',
    chunkingStrategy: { type: 'page' },
    engine: 'parse_performance',
    engineVersion: 'latest',
    advancedOptions: {
      pageRotationEnabled: true,
      excelSkipHiddenContent: false,
      excelUseRawCellValues: false,
      excelSkipCalculation: true,
      excelIncludeCellMetadata: false,
      excelIncludeCellFormatting: false,
    },
  });
  const extracted = await engine.extractRuns.create({
    file: { id: file.id },
    config: {
      schema: {
        type: 'object',
        properties: { invoice_number: { type: 'string', description: 'Invoice number' } },
      },
    },
  });
  expect(extracted.id).toMatch(/^exr_/);
  const extractDone = await engine.extractRuns.waitFor(extracted.id, { timeoutMs: 20_000 });
  expect(extractDone).toMatchObject({
    status: 'PROCESSED',
    output: { value: { invoice_number: 'INV-2026-0042' } },
  });
  const classifier = await engine.classifiers.create({
    name: 'docs',
    config: {
      classifications: [
        {
          id: 'invoice',
          type: 'invoice',
          description: 'An invoice with an invoice number and an amount due',
        },
        { id: 'other', type: 'other', description: 'Anything else' },
      ],
    },
  });
  const version = await engine.classifiers.publish(classifier.id, { releaseType: 'major' });
  const classified = await engine.classifyRuns.create({
    file: { id: file.id },
    classifier: { id: classifier.id, version: version.processorVersion.version },
  });
  const classifyDone = await engine.classifyRuns.waitFor(classified.id, { timeoutMs: 20_000 });
  expect(classifyDone).toMatchObject({
    object: 'classify_run',
    status: 'PROCESSED',
    output: { id: 'invoice' },
  });
  const split = await engine.splitRuns.create({
    file: { id: file.id },
    config: {
      splitClassifications: [
        { id: 'invoice', type: 'invoice', description: 'An invoice' },
        { id: 'other', type: 'other', description: 'Anything else' },
      ],
    },
  });
  const splitDone = await engine.splitRuns.waitFor(split.id, { timeoutMs: 20_000 });
  expect(splitDone.status).toBe('PROCESSED');
  const splits = (splitDone.output as { splits: { fileId: string; startPage: number }[] }).splits;
  expect(splits.length).toBeGreaterThan(0);
  expect((await engine.files.get(splits[0]?.fileId as string)).parentFileId).toBe(file.id);
  expect(events).toEqual(
    expect.arrayContaining([
      'extract_run.processed',
      'classify_run.processed',
      'split_run.processed',
    ]),
  );
});
