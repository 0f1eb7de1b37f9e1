/**
 * Generators of extracted invoices: well-formed ones built from integer cents (so the expected
 * answer is exact), and hostile ones where any field can be missing or of the wrong type.
 */
import fc from 'fast-check';

/** A well-formed invoice and the integer cents it was built from. */
export interface GoodInvoice {
  readonly invoice: Record<string, unknown>;
  readonly lineCents: readonly number[];
}

const DAY_MS = 86_400_000;
const isoDate = (day: number) =>
  new Date(Date.UTC(2020, 0, 1) + day * DAY_MS).toISOString().slice(0, 10);

/** Invoices that every rule should accept. */
export const goodInvoice: fc.Arbitrary<GoodInvoice> = fc
  .record({
    number: fc.stringMatching(/^[A-Z]{2,4}-\d{1,6}$/),
    lineCents: fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 30 }),
    taxCents: fc.integer({ min: 0, max: 1_000_000 }),
    issueDay: fc.integer({ min: 0, max: 3_000 }),
    termDays: fc.integer({ min: 0, max: 120 }),
    currency: fc.constantFrom('EUR', 'USD', 'GBP', 'eur'),
  })
  .map(({ number, lineCents, taxCents, issueDay, termDays, currency }) => {
    const subtotalCents = lineCents.reduce((a, b) => a + b, 0);
    return {
      lineCents,
      invoice: {
        invoice_number: number,
        line_items: lineCents.map((c, i) => ({ description: `item ${i + 1}`, amount: c / 100 })),
        subtotal: subtotalCents / 100,
        tax: taxCents / 100,
        total: (subtotalCents + taxCents) / 100,
        issue_date: isoDate(issueDay),
        due_date: isoDate(issueDay + termDays),
        currency,
      },
    };
  });

/** A value of any JSON type but the right one. */
export const junk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 12 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

/** Anything an extractor might plausibly return, fields missing or of any type. */
export const hostileInvoice: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    invoice_number: junk,
    line_items: fc.oneof(junk, fc.array(fc.record({ amount: junk }, { requiredKeys: [] }))),
    subtotal: junk,
    tax: junk,
    total: junk,
    issue_date: junk,
    due_date: junk,
    currency: junk,
  },
  { requiredKeys: [] },
);
