/**
 * Offline extraction of a 20-field schema (18 labelled scalars of every kind, a nested object
 * and a line-item table) over a parsed 10-page document (a header page and 9 pages of line
 * items, about 380 rows). Target: median under 50 ms.
 * Run: cd bench && npx tsx src/processors/extract.ts
 */

import { loadavg } from 'node:os';
import {
  buildDocumentView,
  conformToSchema,
  offlineProvider,
  textToParseOutput,
} from '@docflow/steps';
import { machineLine, measure } from '../harness.ts';

const header = [
  'Acme Industrial Supply',
  '12 Market Street',
  '',
  'INVOICE',
  'Invoice number: INV-2024-0042',
  'Invoice date: March 15, 2024',
  'Due date: 04/14/2024',
  'PO number: PO-7781',
  'Customer ID: C-1009',
  'Account manager: Maria Gonzalez',
  'Payment terms: Net 30',
  'Currency: EUR',
  'Shipping method: Ground',
  'Ship date: 2024-03-16',
  'Tracking number: 1Z999AA10123456784',
  'Bill to: Northwind Traders',
  'Vendor VAT ID: DE123456789',
  'Discount: 0,00 EUR',
  'Paid: no',
  'Subtotal: 123.456,78 EUR',
  'Tax: 23.456,79 EUR',
  'Total due: 146.913,57 EUR',
].join('\n');

const rows: string[] = [];
for (let i = 0; i < 380; i++) {
  const qty = (i % 12) + 1;
  const unit = 10 + ((i * 37) % 400) + 0.25;
  rows.push(
    `${`Part ${i} steel bracket`.padEnd(30)}  ${String(qty).padEnd(6)}  ${unit.toFixed(2).padEnd(12)}  ${(qty * unit).toFixed(2)}`,
  );
}
const pages = [header];
for (let p = 0; p < 9; p++) {
  const body = rows.slice(p * 43, (p + 1) * 43);
  pages.push(
    [
      'Description                     Qty     Unit price    Amount',
      ...body,
      '',
      `Page ${p + 2} of 10`,
    ].join('\n'),
  );
}

const str = { type: ['string', 'null'] };
const date = { type: ['string', 'null'], format: 'date' };
const money = {
  type: 'object',
  properties: { amount: { type: ['number', 'null'] }, iso_4217: { type: ['string', 'null'] } },
};
const schema = {
  type: 'object',
  properties: {
    invoice_number: str,
    invoice_date: date,
    due_date: date,
    po_number: str,
    customer_id: str,
    account_manager: str,
    payment_terms: { type: ['string', 'null'], enum: ['Net 30', 'Net 60', null] },
    currency: str,
    shipping_method: str,
    ship_date: date,
    tracking_number: str,
    customer_name: str,
    vendor: { type: 'object', properties: { vat_id: str, name: str } },
    discount: money,
    paid: { type: ['boolean', 'null'] },
    subtotal: money,
    tax: money,
    total: money,
    page_count: { type: ['integer', 'null'] },
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          description: str,
          quantity: { type: ['number', 'null'] },
          unit_price: money,
          amount: money,
        },
      },
    },
  },
};

const parsed = textToParseOutput(pages);
const provider = offlineProvider();
const config = { schema };

async function full() {
  const view = buildDocumentView([{ output: parsed, fileId: 'file_bench' }]);
  const { output } = await provider.extract(view, schema, config);
  const conformed = conformToSchema(output.value, schema);
  if (!conformed.ok) throw new Error(conformed.errors.join('; '));
  return conformed.value;
}

const view = buildDocumentView([{ output: parsed, fileId: 'file_bench' }]);
const check = await full();
const items = (check.line_items as unknown[]).length;
const filled = Object.values(check).filter((v) => v !== null).length;

const endToEnd = await measure('parse output → view → extract → conform', full, {
  durationMs: 3000,
});
const extractOnly = await measure(
  'extract only (view prebuilt)',
  () => provider.extract(view, schema, config),
  {
    durationMs: 3000,
  },
);

/** CPU time per call (user + system), which load from other processes does not inflate. */
async function cpuMsPerCall(fn: () => unknown, calls: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / calls;
}
const cpuFull = await cpuMsPerCall(full, 30);
const cpuExtract = await cpuMsPerCall(() => provider.extract(view, schema, config), 30);

console.log(machineLine());
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`10 pages, 20-field schema: ${filled} of 20 fields filled, ${items} line items\n`);
console.log('| case | median ms (wall) | p99 ms | CPU ms per call | target |');
console.log('|---|---|---|---|---|');
for (const [m, cpu] of [
  [endToEnd, cpuFull],
  [extractOnly, cpuExtract],
] as const) {
  console.log(
    `| ${m.name} | ${m.medianMs.toFixed(2)} | ${m.p99Ms.toFixed(2)} | ${cpu.toFixed(2)} | < 50 ms median |`,
  );
}
