import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { classifyStep } from '../../src/executors/classify-step.ts';
import type { SplitItem } from '../../src/executors/split-step.ts';
import { splitStep } from '../../src/executors/split-step.ts';
import type { ClassifyOutput } from '../../src/processors/provider.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { CORPUS_CLASSIFICATIONS, generatePackets } from '../fixtures/corpus/generate-corpus.ts';
import { memoryFiles, stepContext, stepInput } from './step-harness.ts';

const classifications = CORPUS_CLASSIFICATIONS.map((c) => ({ ...c }));
const invoice = 'Acme\nINVOICE\nInvoice number: INV-9\nDue date: 2024-05-01\nTotal: $10.00';

async function pdfOf(pages: readonly string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Courier);
  for (const text of pages) {
    const page = doc.addPage([612, 792]);
    text.split('\n').forEach((line, i) => {
      page.drawText(line.replace(/[^\x20-\x7e]/g, '?'), { x: 72, y: 720 - i * 12, size: 10, font });
    });
  }
  return doc.save();
}

describe('classifyStep', () => {
  it('classifies and routes by classification id', async () => {
    const files = memoryFiles();
    const file = files.add('a.txt', invoice);
    const outcome = await classifyStep().execute(
      stepInput('CLASSIFY', { classifierConfig: { classifications } }, [file], {
        parse: textToParseOutput(invoice) as never,
      }),
      stepContext(files),
    );
    if ('failure' in outcome) throw new Error(outcome.failure.message);
    const output = outcome.output as unknown as ClassifyOutput;
    expect(outcome.route).toBe('cls_invoice');
    expect(output.id).toBe('cls_invoice');
    expect(output.type).toBe('invoice');
    expect(output.confidence).toBeGreaterThan(0.5);
    expect(output.insights[0]?.type).toBe('reasoning');
  });

  it('chooses other when nothing matches, with the confidence it has', async () => {
    const files = memoryFiles();
    const text = 'Recipe for pancakes\nMix flour, eggs and milk.\nFry on a hot pan.';
    const file = files.add('r.txt', text);
    const outcome = await classifyStep().execute(
      stepInput('CLASSIFY', { classifierConfig: { classifications } }, [file], {
        parse: textToParseOutput(text) as never,
      }),
      stepContext(files),
    );
    expect('route' in outcome && outcome.route).toBe('cls_other');
  });

  it('classifies a document without text as other with no confidence', async () => {
    const files = memoryFiles();
    const file = files.add('blank.txt', '');
    const outcome = await classifyStep().execute(
      stepInput('CLASSIFY', { classifierConfig: { classifications } }, [file], {
        parse: textToParseOutput(['']) as never,
      }),
      stepContext(files),
    );
    expect('output' in outcome && outcome.output).toMatchObject({ id: 'cls_other', confidence: 0 });
  });

  it('rejects configs with duplicate ids or without other', async () => {
    const files = memoryFiles();
    const file = files.add('a.txt', invoice);
    const outcome = await classifyStep().execute(
      stepInput(
        'CLASSIFY',
        {
          classifierConfig: {
            classifications: [
              { id: 'a', type: 'invoice' },
              { id: 'a', type: 'receipt' },
            ],
          },
        },
        [file],
      ),
      stepContext(files),
    );
    expect('failure' in outcome && outcome.failure.reason).toBe('INVALID_CONFIGURATION');
    expect('failure' in outcome && outcome.failure.message).toMatch(/duplicate id "a".*"other"/);
  });
});

describe('splitStep', () => {
  const packet =
    generatePackets(6, 3).find((p) => p.documents.length >= 3) ?? generatePackets(1)[0];

  it('cuts a PDF packet into child PDFs of the split pages, forked by classification id', async () => {
    if (!packet) throw new Error('no packet');
    const files = memoryFiles();
    const file = files.add('packet.pdf', await pdfOf(packet.pages), 'PDF');
    const outcome = await splitStep().execute(
      stepInput('SPLIT', { splitterConfig: { splitClassifications: classifications } }, [file], {
        parse: textToParseOutput(packet.pages) as never,
      }),
      stepContext(files),
    );
    if ('failure' in outcome) throw new Error(outcome.failure.message);
    const { splits } = outcome.output as unknown as { splits: SplitItem[] };
    expect(splits.map((s) => [s.startPage, s.endPage])).toEqual(
      packet.documents.map((d) => [d.startPage, d.endPage]),
    );
    expect(splits.map((s) => s.type)).toEqual(packet.documents.map((d) => d.type));
    expect(outcome.forks?.map((f) => f.route)).toEqual(splits.map((s) => s.classificationId));
    for (const [i, split] of splits.entries()) {
      const child = files.created[i];
      expect(child?.id).toBe(split.fileId);
      expect(child?.parentFileId).toBe(file.id);
      expect(child?.metadata.parentSplit).toEqual({
        id: split.id,
        type: split.type,
        identifier: split.identifier,
        startPage: split.startPage,
        endPage: split.endPage,
      });
      const bytes = files.bytes.get(split.fileId);
      if (!bytes) throw new Error('child bytes missing');
      const pdf = await PDFDocument.load(bytes);
      expect(pdf.getPageCount()).toBe(split.endPage - split.startPage + 1);
      expect(child?.metadata.pageCount).toBe(pdf.getPageCount());
    }
  });

  it('makes text children for text files, and the same ids on a re-run', async () => {
    if (!packet) throw new Error('no packet');
    const run = async () => {
      const files = memoryFiles();
      const file = files.add('packet.txt', packet.pages.join('\f'));
      const outcome = await splitStep().execute(
        stepInput('SPLIT', { splitterConfig: { splitClassifications: classifications } }, [file], {
          parse: textToParseOutput(packet.pages) as never,
        }),
        stepContext(files),
      );
      if ('failure' in outcome) throw new Error(outcome.failure.message);
      return { files, splits: (outcome.output as unknown as { splits: SplitItem[] }).splits };
    };
    const first = await run();
    const second = await run();
    expect(second.splits.map((s) => s.id)).toEqual(first.splits.map((s) => s.id));
    const [split] = first.splits;
    const text = new TextDecoder().decode(first.files.bytes.get(split?.fileId ?? ''));
    // The child holds the split's pages as text lines (blank lines dropped), pages split by \f.
    const expected = packet.pages
      .slice(0, split?.endPage ?? 0)
      .map((page) =>
        page
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => l.trim())
          .join('\n'),
      )
      .join('\f');
    expect(text).toBe(expected);
  });

  it('extracts from a split child using only its pages of the parent parse output', async () => {
    const { extractStep } = await import('../../src/executors/extract-step.ts');
    const files = memoryFiles();
    const pages = ['Invoice number: INV-1', 'Invoice number: INV-2', 'Invoice number: INV-3'];
    const child = files.add('child.txt', pages[1] ?? '', 'TXT', {
      parentSplit: {
        id: 'split_1',
        type: 'invoice',
        identifier: 'INV-2',
        startPage: 2,
        endPage: 2,
      },
      pageCount: 1,
    });
    const outcome = await extractStep().execute(
      stepInput(
        'EXTRACT',
        {
          extractorConfig: {
            schema: {
              type: 'object',
              properties: { invoice_number: { type: ['string', 'null'] } },
            },
          },
        },
        [child],
        { parse: textToParseOutput(pages) as never },
      ),
      stepContext(files),
    );
    if ('failure' in outcome) throw new Error(outcome.failure.message);
    const output = outcome.output as unknown as {
      value: unknown;
      metadata: Record<string, { citations: { page: { number: number }; fileId?: string }[] }>;
    };
    expect(output.value).toEqual({ invoice_number: 'INV-2' });
    expect(output.metadata.invoice_number?.citations[0]).toMatchObject({
      page: { number: 1 },
      fileId: child.id,
    });
  });

  it('fails with FAILED_TO_PROCESS_FILE when the PDF cannot be cut', async () => {
    const files = memoryFiles();
    const file = files.add('bad.pdf', '%PDF-1.4 garbage', 'PDF');
    const outcome = await splitStep().execute(
      stepInput('SPLIT', { splitterConfig: { splitClassifications: classifications } }, [file], {
        parse: textToParseOutput([invoice]) as never,
      }),
      stepContext(files),
    );
    expect('failure' in outcome && outcome.failure.reason).toBe('FAILED_TO_PROCESS_FILE');
  });
});
