/**
 * The usage a processor step reports: credits per page read, pages, and (additively) the model
 * tokens a provider spent.
 */
import type { StepUsage } from '@docflow/engine';
import type { ProviderUsage } from '../processors/provider.ts';
/** {@link StepUsage} with the model tokens of a provider call (additive fields). */
export interface ProcessorUsage extends StepUsage {
    readonly inputTokens?: number;
    readonly outputTokens?: number;
}
/** Maps a provider's usage to a step's usage. */
export declare function stepUsage(usage: ProviderUsage, creditsPerPage?: number): ProcessorUsage;
//# sourceMappingURL=processor-usage.d.ts.map