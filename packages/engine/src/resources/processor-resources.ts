import type { CreatedBy } from '../created-by.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import {
  createProcessorResolution,
  type ProcessorResolutionService,
} from '../processors/processor-resolution.ts';
import {
  createProcessorsService,
  type GenerateSchema,
  type ProcessorsService,
} from './processors.ts';

/** The engine's processor resources and the resolution of references to them. */
export interface ProcessorResources {
  readonly extractors: ProcessorsService;
  readonly classifiers: ProcessorsService;
  readonly splitters: ProcessorsService;
  readonly resolution: ProcessorResolutionService;
}

/**
 * Creates `engine.extractors`, `engine.classifiers` and `engine.splitters` over one context, and
 * the resolution that executors and workflow validation use.
 *
 * @example
 * const processors = createProcessorResources(ctx, { createdBy: null });
 * const issues = validateWorkflowDefinition(def, { processors: await processors.resolution.resolverFor(def) });
 */
export function createProcessorResources(
  ctx: EngineContext,
  options: { readonly createdBy?: CreatedBy | null; readonly generateSchema?: GenerateSchema } = {},
): ProcessorResources {
  const common = {
    ...(options.createdBy === undefined ? {} : { createdBy: options.createdBy }),
  };
  const extractors = createProcessorsService(ctx, {
    kind: 'extractor',
    ...common,
    ...(options.generateSchema === undefined ? {} : { generateSchema: options.generateSchema }),
  });
  const classifiers = createProcessorsService(ctx, { kind: 'classifier', ...common });
  const splitters = createProcessorsService(ctx, { kind: 'splitter', ...common });
  return {
    extractors,
    classifiers,
    splitters,
    resolution: createProcessorResolution({
      extractor: extractors,
      classifier: classifiers,
      splitter: splitters,
    }),
  };
}
