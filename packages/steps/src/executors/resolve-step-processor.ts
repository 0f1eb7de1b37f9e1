/**
 * A step's processor config: inline, or a saved `{ id, version }` resolved through the
 * engine-injected {@link ResolveProcessor}. A reference that cannot be resolved is an
 * INVALID_PROCESSOR failure.
 */
import type {
  ProcessorConfigByKind,
  ProcessorKind,
  ProcessorReference,
  ResolveProcessor,
} from '../processors/processor-config.ts';
import type { ProcessorFailure } from '../processors/run-processor.ts';

/** Returns the inline config, or resolves the reference. */
export async function resolveStepProcessor<K extends ProcessorKind>(
  kind: K,
  inline: ProcessorConfigByKind[K] | undefined,
  reference: ProcessorReference | undefined,
  resolve: ResolveProcessor | undefined,
  signal: AbortSignal,
): Promise<ProcessorConfigByKind[K] | ProcessorFailure> {
  if (inline) return inline;
  if (!reference) {
    return {
      failure: {
        reason: 'INVALID_CONFIGURATION',
        message: `The step names no ${kind.toLowerCase()} processor and no inline config`,
      },
    };
  }
  if (!resolve) {
    return {
      failure: {
        reason: 'INVALID_PROCESSOR',
        message: `Processor ${reference.id} version ${reference.version} cannot be resolved: no resolveProcessor was given to the step executors`,
      },
    };
  }
  let config: Readonly<Record<string, unknown>>;
  try {
    config = await resolve(kind, reference);
    signal.throwIfAborted();
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    return {
      failure: {
        reason: 'INVALID_PROCESSOR',
        message: `Processor ${reference.id} version ${reference.version}: ${(error as Error).message ?? String(error)}`,
      },
    };
  }
  const required = REQUIRED_FIELD[kind];
  const value = config?.[required];
  const ok =
    required === 'schema' ? typeof value === 'object' && value !== null : Array.isArray(value);
  if (!ok) {
    return {
      failure: {
        reason: 'INVALID_PROCESSOR',
        message: `Processor ${reference.id} version ${reference.version} has no ${required} in its config`,
      },
    };
  }
  return config as unknown as ProcessorConfigByKind[K];
}

const REQUIRED_FIELD: Readonly<Record<ProcessorKind, string>> = {
  EXTRACT: 'schema',
  CLASSIFY: 'classifications',
  SPLITTER: 'splitClassifications',
};

/** True when `value` is a failure. */
export function isFailure(value: unknown): value is ProcessorFailure {
  return typeof value === 'object' && value !== null && 'failure' in value;
}
