import { clampBox } from '../../boxes.ts';
import type { DraftBlock } from '../../draft-document.ts';
import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import { spatialText } from '../../spatial-text.ts';
import type { HeadingCandidate } from './headings.ts';
import { layoutPage } from './page-layout.ts';
import type { PageScan } from './scan-page.ts';

/**
 * A page read and laid out by the thread that read it: all but heading levels, which need the
 * text sizes of every page ({@link HeadingCandidate}). Plain data, so reader processes can send it.
 */
export interface LaidPage extends Omit<PageScan, 'runs' | 'tables' | 'images' | 'fields'> {
  /** Text, tables and figures in reading order, then form fields. */
  readonly blocks: DraftBlock[];
  readonly headings: HeadingCandidate[];
  /** Characters per text size (rounded to half points), in order of first appearance. */
  readonly sizes: [size: number, chars: number][];
  /** The page as fixed-width text, for the `spatial` target ('' for the others). */
  readonly spatial: string;
}

/** Images smaller than this share of the page are decoration, not figures. */
const FIGURE_MIN_AREA = 0.005;

/** Lays out a page as soon as it is read (see {@link LaidPage}). */
export function layOutPage(scan: PageScan, config: ResolvedParseConfig): LaidPage {
  const { runs, tables, images, fields, ...page } = scan;
  const figures: DraftBlock[] = config.figures
    ? images
        .filter(
          (box) =>
            (box.right - box.left) * (box.bottom - box.top) >
            scan.width * scan.height * FIGURE_MIN_AREA,
        )
        .map((box) => ({
          type: 'figure',
          content: '',
          markdown: '',
          details: { type: 'figure_details', figureType: 'image' },
          boundingBox: clampBox(box, scan.width, scan.height),
        }))
    : [];
  const laid = layoutPage(runs, tables, figures, {
    keyValues: config.keyValue,
    // parse_light reads text alone: no tables, from rules or from aligned text.
    rowTables: config.engine !== 'parse_light',
  });
  const sizes = new Map<number, number>();
  for (const run of runs) {
    const size = Math.round(run.size * 2) / 2;
    sizes.set(size, (sizes.get(size) ?? 0) + run.text.length);
  }
  return {
    ...page,
    blocks: fields.length > 0 ? [...laid.blocks, ...fields] : laid.blocks,
    headings: laid.headings,
    sizes: [...sizes],
    // Laying out fixed-width text costs ~2 ms a page: only for the spatial target.
    spatial: config.target === 'spatial' ? spatialText(laid.lines, scan.width) : '',
  };
}
