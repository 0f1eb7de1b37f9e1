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
export function stepUsage(usage: ProviderUsage, creditsPerPage = 1): ProcessorUsage {
  return {
    credits: usage.pages * creditsPerPage,
    pages: usage.pages,
    ...(usage.inputTokens === undefined ? {} : { inputTokens: usage.inputTokens }),
    ...(usage.outputTokens === undefined ? {} : { outputTokens: usage.outputTokens }),
  };
}
