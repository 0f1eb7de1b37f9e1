import { type StepExecutor } from '@docflow/engine';
import type { ProcessorStepOptions } from './processor-step-options.ts';
/** FILE_CONVERSION step config. */
export interface FileConversionStepConfig {
    readonly failureBehavior?: 'CONTINUE' | 'EXIT';
}
/** What happened to one file. */
export interface FileConversion {
    readonly fileId: string;
    readonly name: string;
    readonly status: 'converted' | 'unchanged' | 'failed';
    readonly convertedFileId: string | null;
    readonly message: string | null;
}
/** Text laid out on letter pages in Helvetica 11 pt; characters outside WinAnsi become "?". */
export declare function textToPdf(text: string): Promise<Uint8Array>;
/** The readable text of an HTML document, one block element per line. */
export declare function htmlText(html: string): Promise<string>;
/**
 * The FILE_CONVERSION executor. Output `{ files, conversions }`: `files` are the path's files
 * after conversion (converted PDFs in place of their originals), `conversions` what happened to
 * each file. The engine continues the path with `files`.
 */
export declare function fileConversionStep(options?: ProcessorStepOptions): StepExecutor<FileConversionStepConfig>;
//# sourceMappingURL=file-conversion-step.d.ts.map