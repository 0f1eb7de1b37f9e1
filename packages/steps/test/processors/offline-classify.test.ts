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

describe('offline classification of receipts that never say "receipt"', () => {
  it('reads "Txn No." as a transaction and "Tendered" as a payment', () => {
    const output = classifyLines(
      [
        'Urban Outfitters Depot',
        'Txn No.    R390690',
        'Date    Sep 2, 2022',
        'Coffee    3    13.53',
        'Total excl. tax    89.71',
        'Sales Tax (8.25%)    7.40',
        'Total Sale    97.11',
        'Paid by    Cash',
        'Tendered    100.00',
        'Change    2.89',
      ],
      {
        classifications: [
          { id: 'inv', type: 'invoice', description: 'A bill for goods or services' },
          { id: 'rct', type: 'receipt', description: 'Proof of a purchase at a shop' },
          { id: 'other', type: 'other' },
        ],
      },
    );
    expect(output.type).toBe('receipt');
  });
});

describe('qualified types and invoices that do not say invoice', () => {
  const qualified = [
    { id: 'inv', type: 'Invoice', description: 'Supplier invoices' },
    { id: 'rcpt', type: 'Sales receipt', description: 'Till and online receipts' },
    { id: 'stmt', type: 'Bank statement', description: 'Statements of our bank accounts' },
    { id: 'letter', type: 'Business letter', description: 'Letters from suppliers' },
    { id: 'other', type: 'other', description: 'Everything else' },
  ];
  it('reads a bill to a customer, paid to an IBAN, as an invoice; thanks for the business make no letter', () => {
    const bill = [
      'Fernwood Instruments GmbH',
      'Bill',
      'Bill No. 5521',
      'Billed to Osaka Precision KK',
      'Consulting hours    10    100.00    1,000.00',
      'Total payable    1,000.00',
      'Thank you for your business',
    ];
    expect(classifyLines(bill, { classifications: qualified }).id).toBe('inv');
    const transfer = [
      'Fernwood Instruments GmbH',
      'Bill to: Osaka Precision KK',
      'No.: A-20931',
      'Calibration service    2    500.00    1,000.00',
      'Net    1,000.00',
      'VAT 20%    200.00',
      'Total    1,200.00',
      'Payment terms: 30 days net',
      'IBAN DE89 3704 0044 0532 0130 00',
    ];
    expect(classifyLines(transfer, { classifications: qualified }).id).toBe('inv');
  });
});
