/**
 * Offline classification: the document's terms against each classification's weighted terms
 * (see term-model.ts); the `other` classification when the best is not confident enough.
 */
import type { ClassificationConfig } from '../processor-config.ts';
import type { ClassifyOutput } from '../provider.ts';
import type { DocumentView } from '../view/document-view.ts';
/** Below this confidence the `other` classification is chosen (when there is one). */
export declare const DEFAULT_CONFIDENCE_THRESHOLD = 0.35;
/** Classifies the lines of a document (or of some of its pages). */
export declare function classifyLines(lines: readonly string[], config: Pick<ClassificationConfig, 'classifications' | 'classificationRules' | 'confidenceThreshold'>, layout?: readonly string[]): ClassifyOutput;
/** Classifies a document view. */
export declare function offlineClassify(doc: DocumentView, config: ClassificationConfig): ClassifyOutput;
//# sourceMappingURL=offline-classify.d.ts.map