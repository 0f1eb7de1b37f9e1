/**
 * Nesting depth of HTML, measured and capped in one linear pass over the source, before any
 * parser builds a tree: parse5 checks scopes through its stack of open elements at every tag and
 * htmlparser2 prepends to its own, so both are quadratic in the depth (20,000 nested `<div>`s took
 * 33 s, 300,000 took minutes). Documents within the cap are left exactly as they are.
 */
/** What {@link capHtmlDepth} did. */
export interface CappedHtml {
    readonly html: string;
    /** The deepest nesting met (elements that nest, unclosed ones included). */
    readonly depth: number;
    /** True when tags deeper than the cap were dropped (their text kept). */
    readonly flattened: boolean;
}
/**
 * Measures how deep the elements of `html` nest and, if deeper than `maxDepth`, returns the
 * source with every tag below that depth removed: their text stays, as text of the element at
 * the cap (a flattened result, not a failure). Comments and raw-text elements (`script`,
 * `style`, …) are skipped whole. Linear in the length of the source.
 */
export declare function capHtmlDepth(html: string, maxDepth: number): CappedHtml;
//# sourceMappingURL=html-depth.d.ts.map