/**
 * Order- and id-free views of run data, so that runs of the same input compare equal whatever the
 * completion order, the process that ran them or the random ids they were given.
 */

/** Ids the engine draws at random (step runs, runs, files); replaced by a placeholder. */
const GENERATED_ID = /^(workflow_step_run_|workflow_run_|file_)[0-9a-z]+$/;

/** A JSON-like value. */
export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

/**
 * `value` with generated ids replaced by `"<id>"`, object keys sorted and arrays sorted by their
 * canonical text. Arrays are sorted because a COLLECT hands on what arrived in arrival order,
 * which is not part of the engine's contract.
 */
export function canonical(value: unknown): Plain {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return GENERATED_ID.test(value) ? '<id>' : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) {
    return value
      .map((v) => canonical(v))
      .map((v) => [JSON.stringify(v), v] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, v]) => v);
  }
  if (typeof value === 'object') {
    const out: { [key: string]: Plain } = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonical(v);
    }
    return out;
  }
  return String(value);
}

/** The canonical text of `value`. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

/** FNV-1a of a string: a stable 32-bit number for deterministic fake outputs. */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seeded pseudo-random source in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
