import { type Matrix } from './geometry.ts';
import { type GraphicsSink } from './page-graphics.ts';
/** An XObject as the content-stream reader needs it. */
export type ContentXObject = {
    readonly kind: 'image';
    readonly width: unknown;
    readonly height: unknown;
    readonly imageMask: boolean;
} | {
    readonly kind: 'form';
    /** `/Matrix` when it is six numbers, else null (identity), as pdf.js reads it. */
    readonly matrix: Matrix | null;
    /** The decoded form content. */
    readonly content: Uint8Array;
    readonly resources: ContentResources;
}
/** Missing, PostScript or of an unknown subtype: pdf.js paints nothing. */
 | {
    readonly kind: 'other';
};
/** Resolves the XObject names of one resource dictionary. */
export interface ContentResources {
    /** `undefined` when the object cannot be read here: the page falls back to pdf.js. */
    xobject(name: string): ContentXObject | undefined;
}
/**
 * Why a page is left to pdf.js's operator list: what this reader does not model exactly
 * (inline images, operand recovery on malformed operators, pdf.js's batching of repeated images,
 * single-pixel image masks, deep or recursive forms).
 */
export declare class UnsupportedContent extends Error {
    readonly name = "UnsupportedContent";
}
/**
 * Reads the painted paths and image placements of a decoded page content stream into `sink`,
 * following `q`/`Q`, `cm` and form XObjects as pdf.js's operator list would present them, without
 * the operator list's cost (it evaluates every glyph and structured-clones its arguments between
 * pdf.js's two halves). Coordinates are rounded to float32 like pdf.js's path buffers.
 * Throws {@link UnsupportedContent} where it cannot promise pdf.js's result; the caller then asks
 * pdf.js for the operator list of that page.
 */
export declare function readContentGraphics(content: Uint8Array, resources: ContentResources, sink: GraphicsSink, maxOps?: number): void;
//# sourceMappingURL=content-graphics.d.ts.map