import { DEFINITION_LIMITS } from './definition-schema.ts';

/** Edit distance of two short strings (Levenshtein, two rows). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The candidate closest to `name` within a small edit distance, for "did you mean" hints. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  // Quadratic in the lengths: only for names a definition may have (oversized ones are already
  // a SCHEMA issue, and input is untrusted).
  if (name.length > DEFINITION_LIMITS.stepNameLength) return undefined;
  const limit = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - name.length) > limit) continue;
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
