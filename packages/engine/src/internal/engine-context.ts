import type { StorageAdapter } from '@docflow/storage';
import type { Clock } from '../clock.ts';

/** What the engine's resource services share. Internal: not exported from the package. */
export interface EngineContext {
  readonly storage: StorageAdapter;
  readonly clock: Clock;
  /** A new id with the given SPEC.md prefix (`workflow_run_`, `file_`, …). */
  newId(prefix: string): string;
  /** RFC 3339 UTC of the clock's now. */
  nowIso(): string;
}
