/**
 * The offline provider: deterministic text heuristics, no network, no model. The default
 * provider of every processor step.
 */
import type { Provider } from '../provider.ts';
/**
 * The offline {@link Provider}: classification by weighted term matching, splitting by per-page
 * classification and boundary cues, extraction by matching schema properties to labels and table
 * headers. Genuinely useful on clean business documents; its confidences say when it is not.
 *
 * @example
 * const provider = offlineProvider();
 * const { output } = await provider.classify(view, { classifications });
 */
export declare function offlineProvider(): Provider;
//# sourceMappingURL=offline-provider.d.ts.map