import type { RunState } from './run-state.ts';

function copyValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyValue(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const copied = copyValue((value as Record<string, unknown>)[key]);
    // JSON.parse makes "__proto__" an own key (user metadata may hold one); assigning it would
    // set the copy's prototype instead.
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = copied;
  }
  return out;
}

/**
 * A deep copy of a run snapshot, which is plain JSON data (objects, arrays, strings, numbers,
 * booleans, null). Every transition works on a copy so that a failed commit leaves the cached
 * state untouched; this copy costs about a tenth of `structuredClone` on a 4 KB snapshot, which
 * serialises through the host's clone algorithm.
 */
export function copyRunState(state: RunState): RunState {
  return copyValue(state) as RunState;
}
