type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
/** pdf.js with its worker half running in this thread, behind an {@link InThreadPort}. */
export interface PdfJsRuntime {
    readonly pdfjs: PdfJs;
    /** Serves every document this thread opens (pass it as `getDocument`'s `worker`). */
    readonly worker: InstanceType<PdfJs['PDFWorker']>;
}
/** A loaded pdf.js document. */
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
/**
 * pdf.js, loaded once per thread. The legacy build is the one that runs on Node 20; its standard
 * fonts and CMaps come from the installed package (never fetched). Its worker half is private to
 * docflow: not left installed as pdf.js's `globalThis.pdfjsWorker`, and not inflating through
 * the application's `DecompressionStream`; the builtins its polyfills replace are put back.
 */
export declare function loadPdfJs(): Promise<PdfJsRuntime>;
/** Local asset folders of pdf.js (trailing slash required by pdf.js). */
export declare const PDFJS_ASSETS: {
    readonly standardFontDataUrl: `${string}/`;
    readonly cMapUrl: `${string}/`;
};
export {};
//# sourceMappingURL=pdfjs.d.ts.map