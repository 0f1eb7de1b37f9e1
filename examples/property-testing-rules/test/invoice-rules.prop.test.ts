/**
 * Properties of the invoice rules: laws that hold for every invoice fast-check can think of,
 * not just the three a hand-written test would try.
 */
import { compileFormula } from '@docflow/formulas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvoice, invoiceRules } from '../src/invoice-rules.ts';
import { goodInvoice, hostileInvoice, junk } from './arbitraries.ts';

const ruleNamed = (result: ReturnType<typeof checkInvoice>, name: string) =>
  result.rules.find((r) => r.name === name);

describe('invoice rules', () => {
  it('every rule compiles and reads only the invoice', () => {
    for (const rule of invoiceRules) {
      const compiled = compileFormula(rule.formula);
      expect(compiled.ok, rule.name).toBe(true);
      if (!compiled.ok) continue;
      for (const path of compiled.formula.dependencies) expect(path).toMatch(/^invoice\./);
    }
  });

  it('accepts every well-formed invoice', () => {
    fc.assert(
      fc.property(goodInvoice, ({ invoice }) => {
        const result = checkInvoice(invoice);
        expect(result.rules.filter((r) => !r.valid)).toEqual([]);
        expect(result.allPassed).toBe(true);
      }),
    );
  });

  it('lines_add_up agrees with integer-cent arithmetic (a reference model)', () => {
    fc.assert(
      fc.property(goodInvoice, fc.integer({ min: -500, max: 500 }), (good, deltaCents) => {
        const subtotalCents = good.lineCents.reduce((a, b) => a + b, 0) + deltaCents;
        const result = checkInvoice({ ...good.invoice, subtotal: subtotalCents / 100 });
        expect(ruleNamed(result, 'lines_add_up')?.valid).toBe(deltaCents === 0);
      }),
    );
  });

  it('flags exactly the non-positive line amounts, whatever their position', () => {
    fc.assert(
      fc.property(
        goodInvoice,
        fc.array(fc.integer({ min: -100_000, max: 0 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 1_000 }),
        (good, badCents, seed) => {
          const items = [...(good.invoice.line_items as { amount: number }[])];
          const badAt = new Set<number>();
          for (const [k, cents] of badCents.entries()) {
            const at = (seed + k * 7) % (items.length + 1);
            items.splice(at, 0, { amount: cents / 100 });
          }
          items.forEach((item, i) => {
            if (item.amount <= 0) badAt.add(i);
          });
          const rule = ruleNamed(
            checkInvoice({ ...good.invoice, line_items: items }),
            'positive_lines',
          );
          expect(rule?.valid).toBe(false);
          expect(rule?.validArray).toEqual(items.map((_, i) => !badAt.has(i)));
        },
      ),
    );
  });

  it('does not depend on the order of the line items', () => {
    fc.assert(
      fc.property(goodInvoice, fc.integer(), (good, seed) => {
        const items = [...(good.invoice.line_items as unknown[])];
        const shuffled = items.map((item, i) => ({ item, key: (i * 2654435761 + seed) >>> 0 }));
        shuffled.sort((a, b) => a.key - b.key);
        const before = checkInvoice(good.invoice);
        const after = checkInvoice({ ...good.invoice, line_items: shuffled.map((s) => s.item) });
        expect(after.rules.map((r) => [r.name, r.valid])).toEqual(
          before.rules.map((r) => [r.name, r.valid]),
        );
      }),
    );
  });

  it('never passes a rule when a field it reads is missing', () => {
    fc.assert(
      fc.property(goodInvoice, fc.constantFrom(...invoiceRules), ({ invoice }, rule) => {
        const compiled = compileFormula(rule.formula);
        if (!compiled.ok) throw new Error(`${rule.name} does not compile`);
        for (const path of compiled.formula.dependencies) {
          const field = path.split('.')[1] ?? '';
          const { [field]: _dropped, ...rest } = invoice;
          const result = ruleNamed(checkInvoice(rest), rule.name);
          expect(result?.valid, `${rule.name} without ${field}`).toBe(false);
        }
      }),
    );
  });

  it('has_lines fails when the extractor returns anything but items with amounts', () => {
    fc.assert(
      fc.property(goodInvoice, junk, ({ invoice }, lineItems) => {
        const rule = ruleNamed(checkInvoice({ ...invoice, line_items: lineItems }), 'has_lines');
        expect(rule?.valid).toBe(false);
      }),
    );
  });

  it('never throws on hostile extractor output: every failure is a value with a reason', () => {
    fc.assert(
      fc.property(hostileInvoice, (invoice) => {
        const result = checkInvoice(invoice);
        expect(result.rules).toHaveLength(invoiceRules.length);
        for (const rule of result.rules) {
          if (rule.valid) continue;
          expect(['RULE_FAILED', 'VALUE_ERROR']).toContain(rule.failureReason);
          if (rule.failureReason === 'VALUE_ERROR') expect(rule.error).toMatch(/columns \d+-\d+/);
        }
      }),
      { numRuns: 200 },
    );
  });
});
