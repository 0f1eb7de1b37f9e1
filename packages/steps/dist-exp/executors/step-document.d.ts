/**
 * The document a processor step works on: the nearest PARSE output on the path (one per file
 * on package runs), limited to a split child's pages, or a fresh parse of the files' bytes when
 * the path carries none.
 */
import type { StepContext, StepInput } from '@docflow/engine';
import type { ParseConfig } from '../parse/parse-output.ts';
import type { ProcessorFailure } from '../processors/run-processor.ts';
import type { DocumentView, ParsedFile } from '../processors/view/document-view.ts';
import type { ParseFallback } from './processor-step-options.ts';
/** The nearest parse output on the path (outputs are in path order, so the last one). */
export declare function findParseOutputs(outputs: StepInput['outputs']): ParsedFile[] | undefined;
/** A loaded document. */
export interface StepDocument {
    readonly view: DocumentView;
    /** Pages read. */
    readonly pages: number;
}
/**
 * Loads the document of a processor step. A split child's file carries `parentSplit`; when the
 * path's parse output is the parent's (it has pages outside the split), only the split's pages
 * are kept, renumbered from 1 and attributed to the child file.
 */
export declare function loadStepDocument(input: StepInput<unknown>, context: StepContext, options?: {
    parse?: ParseFallback;
    parseConfig?: ParseConfig;
}): Promise<StepDocument | ProcessorFailure>;
//# sourceMappingURL=step-document.d.ts.map