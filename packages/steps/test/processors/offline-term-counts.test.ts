/**
 * A text's term counts hold its words and shapes only; what lines with a figure gave their words
 * is noted apart: a type's name there counts once in the title zone, as a label after it.
 */
import { describe, expect, it } from 'vitest';
import { buildTermProfiles, rank, termCounts } from '../../src/processors/offline/term-model.ts';

describe('term counts', () => {
  it('keep the notes on labelled lines out of the terms', () => {
    const { counts, labelled } = termCounts(['Northwind Traders', 'Purchase Order    PO532575']);
    expect([...counts.keys()].filter((t) => !/^[\p{L}\d_@]/u.test(t))).toEqual([]);
    expect(counts.get('purchase_order')).toBe(3);
    expect(labelled.get('purchase_order')).toEqual({ count: 2, lines: 0 });
  });

  it('give a type named beside a figure its name once at the top and a label after', () => {
    const profiles = buildTermProfiles([
      { id: 'po', type: 'purchase_order' },
      { id: 'other', type: 'other' },
    ]);
    const filler = ['Northwind Traders', 'Harbour Lane 3', 'Bristol', 'BS1 4QA', 'UK', 'Tel.'];
    const top = rank(profiles, termCounts(['Purchase Order    PO532575']));
    const later = rank(profiles, termCounts([...filler, 'Purchase Order    PO532575']));
    const title = rank(profiles, termCounts(['Purchase Order']));
    expect(later.bestScore).toBeGreaterThan(0);
    expect(later.bestScore).toBeLessThan(top.bestScore / 2);
    expect(top.bestScore).toBeLessThan(title.bestScore);
  });
});
