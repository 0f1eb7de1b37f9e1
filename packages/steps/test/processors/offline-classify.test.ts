import { describe, expect, it } from 'vitest';
import { classifyLines } from '../../src/processors/offline/offline-classify.ts';

const classifications = [
  { id: 'invoice', type: 'invoice', description: 'An invoice: invoice number, amount due, total' },
  { id: 'other', type: 'other', description: 'Anything else' },
];

/** The confidence the reasoning insight states for the answer it gives. */
function statedConfidence(output: ReturnType<typeof classifyLines>): number {
  const text = output.insights?.[0]?.content ?? '';
  const match = /^Classified as \w+ with confidence ([\d.]+)\./.exec(text);
  if (!match) throw new Error(`no stated confidence in ${JSON.stringify(text)}`);
  return Number(match[1]);
}

describe('offline classification falling back to other', () => {
  it('states the confidence it returns, for a document no classification matches', () => {
    const output = classifyLines(['zebra quartz lullaby'], { classifications });
    expect(output.id).toBe('other');
    expect(statedConfidence(output)).toBe(Number(output.confidence.toFixed(2)));
    expect(output.insights?.[0]?.content).toContain('No classification matched');
  });

  it('and for one whose best candidate is below the threshold', () => {
    const output = classifyLines(['total', 'zebra quartz lullaby moon river stone'], {
      classifications,
      confidenceThreshold: 0.99,
    });
    expect(output.id).toBe('other');
    expect(statedConfidence(output)).toBe(Number(output.confidence.toFixed(2)));
    expect(output.insights?.[0]?.content).toMatch(/below the 0\.99 threshold/);
  });
});
