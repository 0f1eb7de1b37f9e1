/**
 * Rows of an item table that are no items. A till's saving and loyalty lines among its items
 * (`Discount`, `Member price`, `You saved`, `Points earned`): the item keeps the price its line
 * prints; a discount line with a quantity and a price of its own (an invoice's) stays an item. A
 * foot's totals set in the description column beside payment words (`Tender: Cash`) or in a
 * figure's column beside a note (`Prices are quoted in sterling | Subtotal | 5,794.48`), and an
 * order's `PO Total`.
 */
import { describe, expect, it } from 'vitest';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import { blockRows, blocksPage } from '../fixtures/view/blocks-page.ts';

const rows = blockRows;

const goods = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          description: { type: ['string', 'null'] },
          quantity: { type: ['number', 'null'] },
          unit_price: { type: ['number', 'null'] },
          amount: { type: ['number', 'null'] },
        },
      },
    },
  },
};

const extracted = (blocks: Parameters<typeof blocksPage>[0]) =>
  offlineExtract(buildDocumentView([{ output: blocksPage(blocks) }]), goods as never).value.items;

describe('saving and loyalty lines on a till', () => {
  it.each(['Discount', 'Member price', 'Multibuy saving', 'Promo saving'])(
    'drops a %s line under its item and the savings line below the items',
    (word) => {
      const items = extracted(
        rows(
          [100, ['Item', 18, 40], ['Qty', 140, 155], ['Amount', 170, 200]],
          [115, ['Milk 1L', 18, 60], ['2', 141, 146], ['3.40', 178, 198]],
          [130, [`  ${word}`, 18, 80], ['-0.50', 175, 198]],
          [145, ['Paracetamol 500mg', 18, 110], ['1', 141, 146], ['3.48', 178, 198]],
          [160, ['Bread', 18, 50], ['1', 141, 146], ['1.20', 178, 198]],
          [175, ['You saved', 18, 70], ['-0.50', 175, 198]],
          [190, ['Points earned', 18, 80], ['12', 185, 198]],
          [205, ['Subtotal', 18, 60], ['7.58', 178, 198]],
        ),
      ) as { description: string; amount: number }[];
      expect(items.map((i) => [i.description, i.amount])).toEqual([
        ['Milk 1L', 3.4],
        ['Paracetamol 500mg', 3.48],
        ['Bread', 1.2],
      ]);
    },
  );

  it('keeps a discount line that has a quantity and a price of its own', () => {
    const items = extracted(
      rows(
        [100, ['Description', 18, 80], ['Qty', 200, 215], ['Price', 250, 275], ['Total', 320, 345]],
        [115, ['Consulting', 18, 70], ['10', 203, 213], ['95.00', 250, 275], ['950.00', 315, 345]],
        [130, ['Discount', 18, 60], ['1', 205, 210], ['-50.00', 247, 275], ['-50.00', 312, 345]],
        [145, ['Subtotal', 18, 60], ['900.00', 315, 345]],
      ),
    ) as { description: string; amount: number }[];
    expect(items.map((i) => [i.description, i.amount])).toEqual([
      ['Consulting', 950],
      ['Discount', -50],
    ]);
  });
});

describe('a foot beside the items', () => {
  it('drops totals in the description column beside payment words, and a PO Total', () => {
    const items = extracted(
      rows(
        [100, ['Qty', 18, 35], ['Item / Service', 60, 130], ['Line Amount', 200, 250]],
        [115, ['1', 20, 25], ['Sourdough loaf', 60, 125], ['5.27', 228, 250]],
        [130, ['4', 20, 25], ['Unleaded fuel', 60, 120], ['65.28', 225, 250]],
        [145, ['Tender: Cash', 18, 75], ['Total excl. tax', 90, 160], ['CHF 70.55', 208, 250]],
        [160, ['Tendered: CHF 80.00', 18, 88], ['VAT 8.25%', 110, 160], ['CHF 5.82', 212, 250]],
        [175, ['Change: CHF 3.63', 18, 80], ['PO Total', 120, 160], ['CHF 76.37', 208, 250]],
      ),
    ) as { description: string; amount: number }[];
    expect(items.map((i) => [i.description, i.amount])).toEqual([
      ['Sourdough loaf', 5.27],
      ['Unleaded fuel', 65.28],
    ]);
  });
});

describe('a note set left of the totals', () => {
  it('drops the totals beside the note and keeps items with a tax column', () => {
    const items = extracted(
      rows(
        [
          100,
          ['Item', 18, 40],
          ['Qty', 200, 215],
          ['Price', 250, 275],
          ['Tax', 290, 320],
          ['Total', 350, 375],
        ],
        [
          115,
          ['Design review', 18, 80],
          ['1', 205, 210],
          ['11.23', 250, 275],
          ['VAT 20%', 290, 325],
          ['11.23', 350, 375],
        ],
        [
          130,
          ['Safety gloves', 18, 80],
          ['18', 203, 213],
          ['10.00', 250, 275],
          ['VAT 20%', 290, 325],
          ['180.00', 345, 375],
        ],
        [
          145,
          ['Prices are quoted in sterling and include tax where', 18, 190],
          ['Subtotal', 250, 290],
          ['191.23', 345, 375],
        ],
        [160, ['stated.', 18, 45], ['VAT 20%', 250, 290], ['38.25', 350, 375]],
      ),
    ) as { description: string; amount: number }[];
    expect(items.map((i) => [i.description, i.amount])).toEqual([
      ['Design review', 11.23],
      ['Safety gloves', 180],
    ]);
  });
});
