import { assertNoIssues } from '../errors.ts';
import { publicArgumentIssues } from '../validation/json-input.ts';

/** What gates a service: the runtime's lifecycle. */
export interface LifecycleGate {
  /** Throws NOT_STARTED unless the engine is started. */
  assertStarted(): void;
}

/**
 * The service with every method gated by the engine's lifecycle: a call before `start()` or after
 * `stop()` rejects with NOT_STARTED and touches nothing (storage is closed then). The arguments
 * must be JSON (no cycles, bounded depth and size, no functions, BigInts, Dates, NaN, reserved
 * keys: `validation/json-input.ts`), or the call rejects with VALIDATION_FAILED naming the path
 * before the method runs. Other members are copied as they are.
 *
 * @example
 * const files = startedOnly(createFilesService(ctx, fileDeletions), runtime);
 */
export function startedOnly<T extends object>(service: T, gate: LifecycleGate): T {
  const gated: Record<string, unknown> = {};
  for (const key of Object.keys(service)) {
    const member = (service as Record<string, unknown>)[key];
    gated[key] =
      typeof member === 'function'
        ? (...args: unknown[]) => {
            try {
              gate.assertStarted();
              assertNoIssues(publicArgumentIssues(args), 'input');
            } catch (error) {
              return Promise.reject(error);
            }
            return (member as (...a: unknown[]) => unknown).apply(service, args);
          }
        : member;
  }
  return gated as T;
}
