/**
 * A user's own validation rules for extracted invoices, the same list a RULE_VALIDATION step
 * would carry, plus a checker the tests (and an app) call directly.
 */
import { evaluateRules, type FormulaRule, type RulesResult } from '@docflow/formulas';

/** The rules, written against the output of an extract step named `invoice`. */
export const invoiceRules: readonly FormulaRule[] = [
  {
    name: 'has_number',
    formula: 'ISTEXT(invoice.invoice_number) AND LEN(TRIM(invoice.invoice_number)) > 0',
    description: 'The invoice number is present and not blank',
  },
  {
    name: 'has_lines',
    // COUNT of the amounts, not COUNTA of the items: a property test found that COUNTA passes
    // when the extractor returns a text instead of a list.
    formula: 'COUNT(invoice.line_items.amount) > 0',
    description: 'At least one line item with a numeric amount',
  },
  {
    name: 'positive_lines',
    formula: 'invoice.line_items.amount > 0',
    description: 'Every line amount is positive',
  },
  {
    name: 'lines_add_up',
    formula: 'ROUND(SUM(invoice.line_items.amount), 2) = ROUND(invoice.subtotal, 2)',
    description: 'The lines add up to the subtotal, to the cent',
  },
  {
    name: 'total_is_subtotal_plus_tax',
    formula: 'ABS(invoice.subtotal + invoice.tax - invoice.total) < 0.005',
    description: 'Total = subtotal + tax, to the cent',
  },
  {
    name: 'due_after_issue',
    formula: 'DATEVALUE(invoice.due_date) >= DATEVALUE(invoice.issue_date)',
    description: 'The due date is not before the issue date',
  },
  {
    name: 'known_currency',
    formula: 'OR(invoice.currency = "EUR", invoice.currency = "USD", invoice.currency = "GBP")',
    description: 'A currency we pay in',
  },
];

/** An extracted invoice, as the extract step outputs it (any field may be missing or odd). */
export type ExtractedInvoice = Record<string, unknown>;

/** Runs every rule over one extracted invoice. */
export function checkInvoice(invoice: ExtractedInvoice): RulesResult {
  return evaluateRules(invoiceRules, { invoice: invoice as never });
}
