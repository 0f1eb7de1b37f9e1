import { describe, expect, it } from 'vitest';
import {
  bodySize,
  headingSizesOf,
  layoutPage,
  withHeadings,
} from '../../../../src/parse/formats/pdf/page-layout.ts';
import type { TextRun } from '../../../../src/parse/formats/pdf/text-runs.ts';

/** A run of `text` at `top` (upright frame), `size` points high. */
function run(text: string, top: number, size: number, bold = false): TextRun {
  const width = text.length * size * 0.5;
  return {
    text,
    box: { left: 72, top, right: 72 + width, bottom: top + size },
    baseline: top + size * 0.8,
    size,
    bold,
    angle: 0,
  };
}

describe('layoutPage and withHeadings', () => {
  const runs = [
    run('Quarterly report', 60, 18, true),
    run('Revenue grew in every region this quarter.', 100, 11),
    run('Outlook', 140, 11, true),
    run('- Hiring continues', 170, 11),
  ];

  it('lays a page out without heading levels, each paragraph a candidate', () => {
    const laid = layoutPage(runs, []);
    expect(laid.blocks.map((block) => block.markdown)).toEqual([
      'Quarterly report',
      'Revenue grew in every region this quarter.',
      'Outlook',
      '- Hiring continues',
    ]);
    expect(laid.blocks.some((block) => 'headingLevel' in block)).toBe(false);
    expect(laid.headings).toEqual([
      { index: 0, size: 18, bold: true },
      { index: 1, size: 11, bold: false },
      { index: 2, size: 11, bold: true },
      { index: 3, size: 11, bold: false },
    ]);
  });

  it('makes headings from the sizes of the whole document', () => {
    const laid = layoutPage(runs, []);
    // Another page of the document has 14 pt text: 18 pt is level 1, 14 pt level 2.
    const sizes = [
      { size: 18, chars: 16 },
      { size: 11, chars: 2000 },
      { size: 14, chars: 40 },
    ];
    const body = bodySize(sizes);
    const headingSizes = headingSizesOf(sizes, body);
    expect(headingSizes).toEqual([18, 14]);
    const blocks = withHeadings(laid.blocks, laid.headings, headingSizes, body);
    expect(blocks.map((block) => [block.markdown, block.headingLevel])).toEqual([
      ['# Quarterly report', 1],
      ['Revenue grew in every region this quarter.', undefined],
      // A lone short bold line at body size: the level below the size-based ones.
      ['### Outlook', 3],
      ['- Hiring continues', undefined],
    ]);
    // The blocks laid out are left as they were.
    expect(laid.blocks[0]?.markdown).toBe('Quarterly report');
    // Where 18 pt is the body size, nothing is a heading by size.
    const flat = withHeadings(laid.blocks, laid.headings, [], 18);
    expect(flat.map((block) => block.headingLevel)).toEqual([1, undefined, 1, undefined]);
  });
});
