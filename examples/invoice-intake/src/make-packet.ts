/**
 * Builds the sample packet PDF at run time with pdf-lib: three invoices (one of two pages, one
 * whose total does not add up) and a delivery note, as a scanner's document feeder would
 * produce them: one PDF, no separators.
 */
import { PDFDocument, type PDFFont, StandardFonts } from '@cantoo/pdf-lib';

/** One invoice of the packet. */
export interface SampleInvoice {
  readonly number: string;
  readonly vendor: string;
  readonly date: string;
  readonly lines: readonly { readonly description: string; readonly amount: number }[];
  readonly subtotal: number;
  readonly tax: number;
  readonly total: number;
  /** Pages the invoice spans (its lines are spread over them). */
  readonly pages: number;
}

/** The invoices in the packet; INV-1002's total is wrong on purpose (it goes to review). */
export const SAMPLE_INVOICES: readonly SampleInvoice[] = [
  {
    number: 'INV-1001',
    vendor: 'Acme Office Supplies',
    date: '2026-03-02',
    lines: [
      { description: 'Printer paper, 20 boxes', amount: 240 },
      { description: 'Toner cartridges', amount: 310 },
      { description: 'Desk lamps', amount: 150 },
    ],
    subtotal: 700,
    tax: 133,
    total: 833,
    pages: 2,
  },
  {
    number: 'INV-1002',
    vendor: 'Globex Logistics',
    date: '2026-03-04',
    lines: [{ description: 'Freight Berlin - Hamburg', amount: 480 }],
    subtotal: 480,
    tax: 91.2,
    total: 617.2,
    pages: 1,
  },
  {
    number: 'INV-1003',
    vendor: 'Initech Consulting',
    date: '2026-03-05',
    lines: [{ description: 'Workshop, 2 days', amount: 2400 }],
    subtotal: 2400,
    tax: 456,
    total: 2856,
    pages: 1,
  },
];

const money = (n: number) => n.toFixed(2);

function writeLines(
  page: ReturnType<PDFDocument['addPage']>,
  font: PDFFont,
  lines: readonly string[],
) {
  let y = 760;
  // Set once: a `font` option on each drawText would add a font resource per line.
  page.setFont(font);
  for (const line of lines) {
    page.drawText(line, { x: 60, y, size: 12 });
    y -= 22;
  }
}

/** The packet: pages of every invoice in order, with a one-page delivery note after the first. */
export async function makePacket(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const addInvoice = (inv: SampleInvoice) => {
    for (let p = 1; p <= inv.pages; p++) {
      const page = pdf.addPage([612, 792]);
      const head = [
        'INVOICE',
        `Vendor: ${inv.vendor}`,
        `Invoice number: ${inv.number}`,
        `Invoice date: ${inv.date}`,
        '',
      ];
      const items = inv.lines.filter((_, i) => i % inv.pages === p - 1);
      const body = items.map((l) => `${l.description}    ${money(l.amount)} EUR`);
      const foot =
        p === inv.pages
          ? [
              '',
              `Subtotal: ${money(inv.subtotal)} EUR`,
              `Tax: ${money(inv.tax)} EUR`,
              `Total: ${money(inv.total)} EUR`,
            ]
          : [];
      writeLines(page, font, [...head, ...body, ...foot, '', `Page ${p} of ${inv.pages}`]);
    }
  };
  const [first, ...rest] = SAMPLE_INVOICES;
  if (first) addInvoice(first);
  const note = pdf.addPage([612, 792]);
  writeLines(note, font, [
    'DELIVERY NOTE',
    'Shipper: Acme Office Supplies',
    'Delivery note number: DN-77',
    'Delivered: 20 boxes of printer paper, 6 toner cartridges',
    'Received by: front desk',
    '',
    'Page 1 of 1',
  ]);
  for (const inv of rest) addInvoice(inv);
  return pdf.save();
}
