import { type StepExecutor } from '@docflow/engine';
import type { ParseLimits, PdfWorkers } from './format-context.ts';
import type { ParseProgress } from './page-progress.ts';
import type { ParseConfig } from './parse-output.ts';
/** The PARSE step's `config` (docs/workflows.md): the interface's ParseConfig, optional. */
export interface ParseStepConfig {
    readonly parseConfig?: ParseConfig;
}
/** Options of {@link parseStep}. */
export interface ParseStepOptions {
    /** Resource limits applied to every file (see {@link ParseLimits}). */
    readonly limits?: Partial<ParseLimits>;
    /**
     * Hears the pages of each file as they are parsed (PDFs and multi-page images; see
     * `parseDocument`'s `onProgress`), with the run, step run and file they belong to.
     */
    readonly onProgress?: (progress: ParseStepProgress) => void;
    /** Whether long PDFs are read on worker threads too (see `parseDocument`'s `pdfWorkers`). */
    readonly pdfWorkers?: PdfWorkers;
}
/** Where a PARSE step is, for a progress display. */
export interface ParseStepProgress extends ParseProgress {
    readonly runId: string;
    readonly stepRunId: string;
    readonly fileId: string;
    readonly fileName: string;
}
/**
 * The PARSE executor: reads the path's file(s) and parses each into the interface's ParseRunOutput.
 * One file: the output is that file's ParseRunOutput. Several (a package): `chunks` are the
 * files' chunks in order, `metadata` is the first file's, and `files` lists
 * `{ fileId, output }` per file. A document problem is a `failure` naming the file.
 *
 * @example
 * const engine = createEngine({ steps: [parseStep({ limits: { maxFileBytes: 50e6 } })] });
 */
export declare function parseStep(options?: ParseStepOptions): StepExecutor<ParseStepConfig>;
//# sourceMappingURL=parse-step.d.ts.map