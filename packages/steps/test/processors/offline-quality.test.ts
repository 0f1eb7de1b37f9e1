/**
 * Quality of the offline provider on the generated corpus (ground truth known to the generator),
 * on text parse outputs. The thresholds are the issue's: classification ≥ 95%, exact split
 * boundaries on ≥ 95% of packets, field-level extraction ≥ 90%.
 */
import { describe, expect, it } from 'vitest';
import {
  DOC_TYPES,
  generateDocuments,
  generatePackets,
} from '../fixtures/corpus/generate-corpus.ts';
import { scoreCorpus } from '../fixtures/corpus/score-corpus.ts';

describe('offline provider quality on the generated corpus', async () => {
  const documents = generateDocuments(14, 7);
  const packets = generatePackets(24, 11);
  const scores = await scoreCorpus(documents, packets);

  it('has at least 60 documents of 5 types and some packets', () => {
    expect(documents.length).toBeGreaterThanOrEqual(60);
    expect(new Set(documents.map((d) => d.type))).toEqual(new Set(DOC_TYPES));
    expect(documents.some((d) => d.pages.length > 1)).toBe(true);
    expect(packets.length).toBeGreaterThanOrEqual(20);
  });

  it('classifies at least 95% of documents correctly', () => {
    const { correct, total, misses } = scores.classification;
    expect(correct / total, JSON.stringify(misses.slice(0, 5))).toBeGreaterThanOrEqual(0.95);
  });

  it('finds exact split boundaries in at least 95% of packets', () => {
    const { exact, total, misses } = scores.split;
    expect(exact / total, JSON.stringify(misses.slice(0, 5))).toBeGreaterThanOrEqual(0.95);
  });

  it('extracts at least 90% of labelled fields correctly', () => {
    const { correct, total, misses } = scores.extraction;
    expect(total).toBeGreaterThan(1000);
    expect(correct / total, JSON.stringify(misses.slice(0, 5))).toBeGreaterThanOrEqual(0.9);
  });
});
