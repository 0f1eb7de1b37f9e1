import { describe, expect, it } from 'vitest';
import { extractStep } from '../../src/executors/extract-step.ts';
import type { ExtractOutput } from '../../src/processors/provider.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { memoryFiles, stepContext, stepInput } from './step-harness.ts';

describe('extractStep on a package run', () => {
  it('extracts across files and cites the file each value comes from', async () => {
    const files = memoryFiles();
    const invoice = files.add('invoice.txt', 'x');
    const contract = files.add('contract.txt', 'y');
    const invoiceOutput = textToParseOutput(['INVOICE\nInvoice number: INV-7\nTotal: $70.00']);
    const contractOutput = textToParseOutput([
      'AGREEMENT\nContract number: C-42\nEffective date: 2024-01-31',
    ]);
    // The PARSE step's output for a package: all chunks, plus one output per file.
    const parse = {
      chunks: [...invoiceOutput.chunks, ...contractOutput.chunks],
      metadata: invoiceOutput.metadata,
      files: [
        { fileId: invoice.id, output: invoiceOutput },
        { fileId: contract.id, output: contractOutput },
      ],
    };
    const schema = {
      type: 'object',
      properties: {
        invoice_number: { type: ['string', 'null'] },
        contract_number: { type: ['string', 'null'] },
        effective_date: { type: ['string', 'null'], format: 'date' },
      },
    };
    const outcome = await extractStep().execute(
      stepInput('EXTRACT', { extractorConfig: { schema } }, [invoice, contract], {
        parse: parse as never,
      }),
      stepContext(files),
    );
    if ('failure' in outcome) throw new Error(outcome.failure.message);
    const output = outcome.output as unknown as ExtractOutput;
    expect(output.value).toEqual({
      invoice_number: 'INV-7',
      contract_number: 'C-42',
      effective_date: '2024-01-31',
    });
    expect(output.metadata.invoice_number?.citations[0]?.fileId).toBe(invoice.id);
    expect(output.metadata.contract_number?.citations[0]?.fileId).toBe(contract.id);
    expect(output.metadata.effective_date?.citations[0]?.page.number).toBe(1);
    expect(outcome.usage).toEqual({ credits: 2, pages: 2 });
  });
});
