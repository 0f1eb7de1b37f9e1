import type { DraftBlock } from '../../draft-document.ts';
import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import type { HeadingCandidate } from './headings.ts';
import type { PageScan } from './scan-page.ts';
/**
 * A page read and laid out by the thread that read it: all but heading levels, which need the
 * text sizes of every page ({@link HeadingCandidate}). Plain data, so worker threads can send it.
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
/** Lays out a page as soon as it is read (see {@link LaidPage}). */
export declare function layOutPage(scan: PageScan, config: ResolvedParseConfig): LaidPage;
//# sourceMappingURL=laid-page.d.ts.map