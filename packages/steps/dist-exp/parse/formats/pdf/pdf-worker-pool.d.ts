import type { ResolvedParseConfig } from '../../resolve-parse-config.ts';
import type { LaidPage } from './laid-page.ts';
import type { PageReadPath } from './read-page.ts';
/** What a PDF worker is asked: its share of one document's pages, to read and lay out. */
export interface ReadRequest {
    readonly bytes: Uint8Array;
    readonly pages: readonly number[];
    readonly config: ResolvedParseConfig;
    readonly hasForm: boolean;
    /** Send a {@link PageRead} message as each page is laid out. */
    readonly progress?: boolean;
}
/** What a PDF worker sends after each page when asked for progress, before its reply. */
export interface PageRead {
    readonly pageRead: {
        readonly scanned: boolean;
    };
}
/** What a PDF worker answers. */
export type ReadReply = {
    readonly ok: true;
    readonly pages: LaidPage[];
    readonly paths: Record<PageReadPath, number>;
} | {
    readonly ok: false;
    readonly reason?: string;
    readonly name: string;
    readonly message: string;
};
/** Workers at most: one per core, up to 4. */
export declare const PDF_WORKERS: number;
/** True when pages can be read by worker threads here. */
export declare function pdfWorkersAvailable(): boolean;
/**
 * True when a core is idle (the load average of the last minute below the core count by one):
 * only then does a second thread reading pages shorten a parse. On a busy machine (this
 * process's other parses, or anything else) another thread only adds contention and its own
 * copy of the document and its fonts. Platforms without a load average (Windows: 0) count as
 * idle.
 */
export declare function spareCore(): boolean;
/**
 * Reads pages on a pooled worker. Rejects with the worker's error when it could not start or
 * crashed (the caller may read the pages itself), with a rebuilt error when reading failed.
 */
export declare function readOnWorker(request: ReadRequest, signal: AbortSignal, onPage?: (page: PageRead['pageRead']) => void): Promise<Extract<ReadReply, {
    ok: true;
}>>;
/** Terminates idle PDF workers (they are started again on demand). */
export declare function closePdfWorkers(): Promise<void>;
//# sourceMappingURL=pdf-worker-pool.d.ts.map