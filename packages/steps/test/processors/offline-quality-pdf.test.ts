/**
 * The offline provider on the corpus rendered as PDFs (pdf-lib) and parsed by the PARSE step's
 * `parseDocument`: the whole path a workflow takes. Smaller samples than the text corpus, since
 * PDF parsing costs about half a second per document here. With the default `markdown` target
 * the PDF parser joins the lines of a paragraph and of a table column into one block, which the
 * view cuts back into lines; with the `spatial` target the layout text keeps every line.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parse/parse-document.ts';
import type { ParseConfig } from '../../src/parse/parse-output.ts';
import { generateDocuments, generatePackets } from '../fixtures/corpus/generate-corpus.ts';
import { renderPdf } from '../fixtures/corpus/render-pdf.ts';
import { scoreCorpus } from '../fixtures/corpus/score-corpus.ts';

function viaPdf(config: ParseConfig) {
  return async (pages: readonly string[]) => {
    const result = await parseDocument(await renderPdf(pages), { fileName: 'corpus.pdf', config });
    if (!result.ok) throw new Error(`${result.failureReason}: ${result.failureMessage}`);
    return result.output;
  };
}

describe('offline provider quality on PDFs (spatial target)', { timeout: 120_000 }, async () => {
  const scores = await scoreCorpus(
    generateDocuments(2, 21),
    generatePackets(4, 22),
    viaPdf({ target: 'spatial' }),
  );

  it('classifies at least 95% of documents correctly', () => {
    const { correct, total, misses } = scores.classification;
    expect(correct / total, JSON.stringify(misses)).toBeGreaterThanOrEqual(0.95);
  });

  it('finds exact split boundaries in at least 95% of packets', () => {
    const { exact, total, misses } = scores.split;
    expect(exact / total, JSON.stringify(misses)).toBeGreaterThanOrEqual(0.95);
  });

  it('extracts at least 90% of labelled fields correctly', () => {
    const { correct, total, misses } = scores.extraction;
    expect(total).toBeGreaterThan(300);
    expect(correct / total, JSON.stringify(misses.slice(0, 5))).toBeGreaterThanOrEqual(0.9);
  });
});

describe('offline provider quality on PDFs (markdown target, the default)', {
  timeout: 120_000,
}, async () => {
  const scores = await scoreCorpus(generateDocuments(1, 23), generatePackets(2, 24), viaPdf({}));

  it('classifies and splits every document', () => {
    expect(scores.classification.correct).toBe(scores.classification.total);
    expect(scores.split.exact).toBe(scores.split.total);
  });

  it('extracts at least 90% of labelled fields, scalar fields included', () => {
    const { correct, total, misses } = scores.extraction;
    expect(total).toBeGreaterThan(200);
    expect(correct / total, JSON.stringify(misses.slice(0, 5))).toBeGreaterThanOrEqual(0.9);
    expect(scores.scalarFields.correct / scores.scalarFields.total).toBeGreaterThanOrEqual(0.9);
  });
});
