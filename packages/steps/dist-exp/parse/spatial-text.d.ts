import type { BoundingBox } from './parse-output.ts';
/** Lays lines out as fixed-width text (the `spatial` target). */
export declare function spatialText(lines: readonly {
    text: string;
    box: BoundingBox;
}[], width: number): string;
//# sourceMappingURL=spatial-text.d.ts.map