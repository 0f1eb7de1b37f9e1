/** The worker half's source with every {@link PATCHES patch} applied; throws when one does not match once. */
export declare function patchWorkerSource(source: string): string;
//# sourceMappingURL=pdfjs-patches.d.ts.map