/**
 * A text's term counts hold its words and shapes only; what the title zone's boost gave the words
 * of a label with its value is noted apart, and a type's name there counts once.
 */
import { describe, expect, it } from 'vitest';
import { buildTermProfiles, rank, termCounts } from '../../src/processors/offline/term-model.ts';

describe('term counts', () => {
  it('keep the notes on labelled lines out of the terms', () => {
    const { counts, labelled } = termCounts(['Northwind Traders', 'Purchase Order    PO532575']);
    expect([...counts.keys()].filter((t) => !/^[\p{L}\d_@]/u.test(t))).toEqual([]);
    expect(counts.get('purchase_order')).toBe(3);
    expect(labelled.get('purchase_order')).toBe(2);
  });

  it('give a type named only beside a figure its name once', () => {
    const profiles = buildTermProfiles([
      { id: 'po', type: 'purchase_order' },
      { id: 'other', type: 'other' },
    ]);
    const once = rank(
      profiles,
      termCounts(['filler', 'filler', 'filler', 'x', 'y', 'z', 'Purchase Order    PO532575']),
    );
    const labelled = rank(profiles, termCounts(['Purchase Order    PO532575']));
    expect(labelled.bestScore).toBeCloseTo(once.bestScore, 6);
  });
});
