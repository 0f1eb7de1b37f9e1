/**
 * A step's processor config: inline, or a saved `{ id, version }` resolved through the
 * engine-injected {@link ResolveProcessor}. A reference that cannot be resolved is an
 * INVALID_PROCESSOR failure.
 */
import type { ProcessorConfigByKind, ProcessorKind, ProcessorReference, ResolveProcessor } from '../processors/processor-config.ts';
import type { ProcessorFailure } from '../processors/run-processor.ts';
/** Returns the inline config, or resolves the reference. */
export declare function resolveStepProcessor<K extends ProcessorKind>(kind: K, inline: ProcessorConfigByKind[K] | undefined, reference: ProcessorReference | undefined, resolve: ResolveProcessor | undefined, signal: AbortSignal): Promise<ProcessorConfigByKind[K] | ProcessorFailure>;
/** True when `value` is a failure. */
export declare function isFailure(value: unknown): value is ProcessorFailure;
//# sourceMappingURL=resolve-step-processor.d.ts.map