/**
 * The offline provider on the corpus rendered as PDFs (pdf-lib) and parsed by the PARSE step's
 * `parseDocument`: the whole path a workflow takes. A smaller sample than the text corpus, since
 * PDF parsing costs about half a second per document here.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { generateDocuments, generatePackets } from '../fixtures/corpus/generate-corpus.ts';
import { renderPdf } from '../fixtures/corpus/render-pdf.ts';
import { scoreCorpus } from '../fixtures/corpus/score-corpus.ts';

describe('offline provider quality on PDFs', { timeout: 120_000 }, async () => {
  const scores = await scoreCorpus(
    generateDocuments(2, 21),
    generatePackets(4, 22),
    async (pages) => {
      const result = await parseDocument(await renderPdf(pages), { fileName: 'corpus.pdf' });
      if (!result.ok) throw new Error(`${result.failureReason}: ${result.failureMessage}`);
      return result.output;
    },
  );

  it('classifies at least 95% of documents correctly', () => {
    const { correct, total, misses } = scores.classification;
    expect(correct / total, JSON.stringify(misses)).toBeGreaterThanOrEqual(0.95);
  });

  it('finds exact split boundaries in at least 95% of packets', () => {
    const { exact, total, misses } = scores.split;
    expect(exact / total, JSON.stringify(misses)).toBeGreaterThanOrEqual(0.95);
  });

  it('extracts at least 90% of labelled scalar fields correctly', () => {
    const { correct, total } = scores.scalarFields;
    expect(correct / total).toBeGreaterThanOrEqual(0.9);
  });

  it('extracts table rows from PDF tables (floor while the parser merges column runs)', () => {
    const { correct, total } = scores.tableFields;
    expect(total).toBeGreaterThan(50);
    expect(correct / total).toBeGreaterThanOrEqual(0.5);
  });
});
