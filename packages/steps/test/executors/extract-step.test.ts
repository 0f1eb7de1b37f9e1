import { describe, expect, it } from 'vitest';
import { extractStep } from '../../src/executors/extract-step.ts';
import type { ExtractOutput } from '../../src/processors/provider.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { memoryFiles, stepContext, stepInput } from './step-harness.ts';

const invoiceText = [
  'Acme Industrial Supply',
  '12 Market Street',
  '',
  'INVOICE',
  'Invoice number: INV-001',
  'Invoice date: 03/15/2024',
  'Due date: April 14, 2024',
  '',
  'Description                     Qty     Unit price      Amount',
  'Steel bracket 40mm              2       $10.00          $20.00',
  'Safety gloves pair              3       $5.50           $16.50',
  '',
  'Total                                     $36.50',
  'Paid: yes',
].join('\n');

const schema = {
  type: 'object',
  properties: {
    invoice_number: { type: ['string', 'null'] },
    invoice_date: { type: ['string', 'null'], format: 'date' },
    due_date: { type: ['string', 'null'], format: 'date' },
    paid: { type: ['boolean', 'null'] },
    total: {
      type: 'object',
      properties: { amount: { type: ['number', 'null'] }, iso_4217: { type: ['string', 'null'] } },
    },
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          description: { type: ['string', 'null'] },
          quantity: { type: ['number', 'null'] },
          amount: {
            type: 'object',
            properties: { amount: { type: 'number' }, iso_4217: { type: ['string', 'null'] } },
          },
        },
      },
    },
  },
  required: ['invoice_number'],
  additionalProperties: false,
};

describe('extractStep', () => {
  it('extracts typed values with citations from the PARSE output on the path', async () => {
    const files = memoryFiles();
    const file = files.add('invoice.txt', invoiceText);
    const outcome = await extractStep().execute(
      stepInput('EXTRACT', { extractorConfig: { schema } }, [file], {
        parse: textToParseOutput(invoiceText) as never,
      }),
      stepContext(files),
    );
    if ('failure' in outcome) throw new Error(outcome.failure.message);
    const output = outcome.output as unknown as ExtractOutput;
    expect(output.value).toEqual({
      invoice_number: 'INV-001',
      invoice_date: '2024-03-15',
      due_date: '2024-04-14',
      paid: true,
      total: { amount: 36.5, iso_4217: 'USD' },
      line_items: [
        { description: 'Steel bracket 40mm', quantity: 2, amount: { amount: 20, iso_4217: 'USD' } },
        {
          description: 'Safety gloves pair',
          quantity: 3,
          amount: { amount: 16.5, iso_4217: 'USD' },
        },
      ],
    });
    const citation = output.metadata.invoice_number?.citations[0];
    expect(citation?.page).toEqual({ number: 1, width: 612, height: 792 });
    expect(citation?.fileId).toBe(file.id);
    expect(citation?.referenceText).toBe('Invoice number: INV-001');
    expect(citation?.polygon).toHaveLength(4);
    expect(output.metadata['line_items[1].amount']?.citations[0]?.referenceText).toBe('$16.50');
    expect(output.metadata.invoice_number?.ocrConfidence).toBeNull();
    expect(outcome.usage).toEqual({ credits: 1, pages: 1 });
  });

  it('parses the file itself when no PARSE output is on the path', async () => {
    const files = memoryFiles();
    const file = files.add('invoice.txt', invoiceText);
    const outcome = await extractStep().execute(
      stepInput('EXTRACT', { extractorConfig: { schema } }, [file]),
      stepContext(files),
    );
    if ('failure' in outcome) throw new Error(outcome.failure.message);
    expect((outcome.output as unknown as ExtractOutput).value.invoice_number).toBe('INV-001');
  });

  it('resolves a saved extractor through resolveProcessor', async () => {
    const files = memoryFiles();
    const file = files.add('invoice.txt', invoiceText);
    const seen: unknown[] = [];
    const step = extractStep({
      resolveProcessor: async (kind, ref) => {
        seen.push([kind, ref]);
        return {
          schema: { type: 'object', properties: { invoice_number: { type: ['string', 'null'] } } },
        } as never;
      },
    });
    const outcome = await step.execute(
      stepInput('EXTRACT', { extractor: { id: 'ex_1', version: '1.0' } }, [file]),
      stepContext(files),
    );
    expect(seen).toEqual([['EXTRACT', { id: 'ex_1', version: '1.0' }]]);
    expect('output' in outcome && (outcome.output as unknown as ExtractOutput).value).toEqual({
      invoice_number: 'INV-001',
    });
  });

  it('fails with INVALID_PROCESSOR when a reference cannot be resolved', async () => {
    const files = memoryFiles();
    const file = files.add('invoice.txt', invoiceText);
    const outcome = await extractStep().execute(
      stepInput('EXTRACT', { extractor: { id: 'ex_1', version: '1.0' } }, [file]),
      stepContext(files),
    );
    expect('failure' in outcome && outcome.failure.reason).toBe('INVALID_PROCESSOR');
  });

  it('fails with INVALID_CONFIGURATION on a schema whose root is not an object', async () => {
    const files = memoryFiles();
    const file = files.add('invoice.txt', invoiceText);
    const outcome = await extractStep().execute(
      stepInput('EXTRACT', { extractorConfig: { schema: { type: 'string' } } }, [file]),
      stepContext(files),
    );
    expect('failure' in outcome && outcome.failure).toMatchObject({
      reason: 'INVALID_CONFIGURATION',
    });
  });

  it('honours pageRanges', async () => {
    const files = memoryFiles();
    const text = ['Invoice number: INV-1', 'Invoice number: INV-2'];
    const file = files.add('two.txt', text.join('\f'));
    const outcome = await extractStep().execute(
      stepInput(
        'EXTRACT',
        {
          extractorConfig: {
            schema: {
              type: 'object',
              properties: { invoice_number: { type: ['string', 'null'] } },
            },
            advancedOptions: { pageRanges: [{ start: 2, end: 2 }] },
          },
        },
        [file],
        { parse: textToParseOutput(text) as never },
      ),
      stepContext(files),
    );
    expect('output' in outcome && (outcome.output as unknown as ExtractOutput).value).toEqual({
      invoice_number: 'INV-2',
    });
  });

  it('turns an unparsable file into a PARSING_ERROR failure', async () => {
    const files = memoryFiles();
    const file = files.add('broken.pdf', '%PDF-1.7 this is not really a pdf', 'PDF');
    const outcome = await extractStep().execute(
      stepInput('EXTRACT', { extractorConfig: { schema } }, [file]),
      stepContext(files),
    );
    expect('failure' in outcome && outcome.failure.reason).toBe('PARSING_ERROR');
  });

  it('rejects with the abort reason when the signal is aborted', async () => {
    const files = memoryFiles();
    const file = files.add('invoice.txt', invoiceText);
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(
      extractStep().execute(
        stepInput('EXTRACT', { extractorConfig: { schema } }, [file], {
          parse: textToParseOutput(invoiceText) as never,
        }),
        stepContext(files, { signal: controller.signal }),
      ),
    ).rejects.toThrow('cancelled');
  });
});
