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

describe('offline classification of qualified type names', () => {
  // Type names as a user might write them, with a short description and no words of the text.
  const qualified = [
    { id: 'c1', type: 'Supplier invoice', description: 'Bills we receive' },
    { id: 'c2', type: 'Sales receipt', description: 'Tills' },
    { id: 'c3', type: 'Business letter', description: 'Correspondence we get' },
    { id: 'c4', type: 'other', description: 'Everything else' },
  ];
  const till = [
    'Corner Deli',
    '12 Market Street',
    'Trans 4471   14:32',
    'Coffee   3.20',
    'Bagel   2.10',
    'Cash   10.00',
    'Change   4.70',
    'Card ****1234',
    'Thank you for your visit',
  ];
  const letter = [
    'Northwind Legal LLP',
    'Dear Ms. Ortega,',
    'Thank you for your note of last week; we will send the signed copy shortly.',
    'Yours sincerely,',
    'Daniel Brooks',
  ];

  it('reads a till slip as the type whose head noun is receipt', () => {
    expect(classifyLines(till, { classifications: qualified }).id).toBe('c2');
  });

  it('reads a letter as the type whose head noun is letter', () => {
    expect(classifyLines(letter, { classifications: qualified }).id).toBe('c3');
  });
});
