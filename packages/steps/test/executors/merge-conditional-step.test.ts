import { describe, expect, it } from 'vitest';
import { conditionalExtractStep } from '../../src/executors/conditional-extract-step.ts';
import { mergeExtractStep } from '../../src/executors/merge-extract-step.ts';
import { processorSteps } from '../../src/executors/processor-steps.ts';
import type { ExtractOutput, FieldMetadata } from '../../src/processors/provider.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { memoryFiles, stepContext, stepInput } from './step-harness.ts';

function meta(confidence: number | null, ocr: number | null = null): FieldMetadata {
  return { ocrConfidence: ocr, logprobsConfidence: null, confidence, citations: [] };
}

const a: ExtractOutput = {
  value: { total: 10, vendor: 'A corp', items: [], note: null },
  metadata: { total: meta(0.4), vendor: meta(0.9) },
};
const b: ExtractOutput = {
  value: { total: 12, vendor: 'B corp', items: [{ x: 1 }], note: null },
  metadata: { total: meta(0.8), vendor: meta(0.2), 'items[0].x': meta(0.6) },
};
const c: ExtractOutput = {
  value: { total: null, vendor: 'C corp', code: 'Z' },
  metadata: { vendor: meta(null, 0.95) },
};

async function merge(mergeOrder: string | undefined, outputs: Record<string, unknown>) {
  const files = memoryFiles();
  const outcome = await mergeExtractStep().execute(
    stepInput(
      'MERGE_EXTRACT',
      mergeOrder === undefined ? {} : ({ mergeOrder } as never),
      [],
      outputs as never,
    ),
    stepContext(files),
  );
  if ('failure' in outcome) throw new Error(outcome.failure.message);
  return outcome.output as unknown as ExtractOutput & {
    mergedSteps: string[];
    fieldSources: Record<string, string>;
  };
}

describe('mergeExtractStep', () => {
  // zeta ran first, then alpha, then the COLLECT delivered gamma's outputs as an array.
  const outputs = { zeta: a, parse: { chunks: [], metadata: null }, alpha: b, gamma: [c] };

  it('confidence (default): the most confident source per field', async () => {
    const merged = await merge(undefined, outputs);
    expect(merged.value).toEqual({
      total: 12,
      vendor: 'C corp',
      items: [{ x: 1 }],
      note: null,
      code: 'Z',
    });
    expect(merged.fieldSources).toEqual({
      total: 'alpha',
      vendor: 'gamma',
      items: 'alpha',
      code: 'gamma',
    });
    expect(merged.metadata.total).toEqual(meta(0.8));
    expect(merged.metadata['items[0].x']).toEqual(meta(0.6));
    expect(merged.mergedSteps).toEqual(['zeta', 'alpha', 'gamma']);
  });

  it('first_to_execute and last_to_execute follow path order', async () => {
    const first = await merge('first_to_execute', outputs);
    expect(first.value).toMatchObject({
      total: 10,
      vendor: 'A corp',
      items: [{ x: 1 }],
      code: 'Z',
    });
    const last = await merge('last_to_execute', outputs);
    expect(last.value).toMatchObject({ total: 12, vendor: 'C corp', items: [{ x: 1 }], code: 'Z' });
  });

  it('alphabetic follows step names', async () => {
    const merged = await merge('alphabetic', outputs);
    expect(merged.value).toMatchObject({ total: 12, vendor: 'B corp' });
    expect(merged.fieldSources.vendor).toBe('alpha');
  });

  it('fails when there is nothing to merge', async () => {
    const files = memoryFiles();
    const outcome = await mergeExtractStep().execute(
      stepInput('MERGE_EXTRACT', {}, [], {}),
      stepContext(files),
    );
    expect('failure' in outcome && outcome.failure.reason).toBe('INVALID_CONFIGURATION');
  });
});

describe('conditionalExtractStep', () => {
  const text = 'INVOICE\nInvoice number: INV-5\nReceipt number: R-9';
  const schemas: Record<string, object> = {
    ex_invoice: { type: 'object', properties: { invoice_number: { type: ['string', 'null'] } } },
    ex_receipt: { type: 'object', properties: { receipt_number: { type: ['string', 'null'] } } },
  };
  const step = conditionalExtractStep({
    resolveProcessor: async (_kind, ref) => ({ schema: schemas[ref.id] ?? {} }) as never,
  });
  const rules = [
    { name: 'bad', formula: 'SUM(', extractor: { id: 'ex_receipt', version: '1.0' } },
    {
      name: 'invoices',
      formula: 'classify1 = "invoice" AND metadata.priority > 1',
      extractor: { id: 'ex_invoice', version: '1.0' },
    },
    { name: 'fallback', formula: 'TRUE', extractor: { id: 'ex_receipt', version: '1.0' } },
  ];

  async function run(metadata: Record<string, number>) {
    const files = memoryFiles();
    const file = files.add('a.txt', text);
    const outcome = await step.execute(
      stepInput(
        'CONDITIONAL_EXTRACT',
        { rules },
        [file],
        {
          parse: textToParseOutput(text) as never,
          classify1: { id: 'cls_invoice', type: 'invoice', confidence: 0.9, insights: [] },
        },
        metadata,
      ),
      stepContext(files),
    );
    if ('failure' in outcome) throw new Error(outcome.failure.message);
    return outcome.output as unknown as ExtractOutput & {
      rule: { index: number; name: string };
      ruleErrors: { index: number }[];
    };
  }

  it('runs the extractor of the first rule whose formula holds', async () => {
    const output = await run({ priority: 2 });
    expect(output.value).toEqual({ invoice_number: 'INV-5' });
    expect(output.rule).toMatchObject({ index: 1, name: 'invoices' });
    expect(output.ruleErrors.map((e) => e.index)).toEqual([0]);
  });

  it('falls through to the TRUE rule', async () => {
    const output = await run({ priority: 1 });
    expect(output.value).toEqual({ receipt_number: 'R-9' });
    expect(output.rule.name).toBe('fallback');
  });

  it('rejects rules whose last formula is not TRUE', async () => {
    const files = memoryFiles();
    const outcome = await step.execute(
      stepInput('CONDITIONAL_EXTRACT', { rules: rules.slice(0, 2) }, [files.add('a.txt', text)]),
      stepContext(files),
    );
    expect('failure' in outcome && outcome.failure.reason).toBe('INVALID_CONFIGURATION');
  });
});

describe('processorSteps', () => {
  it('lists one executor per processor step type, each with a config schema', () => {
    const steps = processorSteps();
    expect(steps.map((s) => s.type)).toEqual([
      'EXTRACT',
      'CLASSIFY',
      'SPLIT',
      'MERGE_EXTRACT',
      'CONDITIONAL_EXTRACT',
      'EXTERNAL_DATA_VALIDATION',
      'FILE_CONVERSION',
    ]);
    for (const step of steps) expect(step.configSchema).toMatchObject({ type: 'object' });
  });
});
