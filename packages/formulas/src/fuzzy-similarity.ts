import { foldCase } from './fold-case.ts';

function normalize(text: string): string[] {
  return Array.from(foldCase(text).trim().replace(/\s+/g, ' '));
}

/**
 * The similarity FUZZYMATCH uses, in [0, 1]: 1 − (Levenshtein distance ÷ length of the longer
 * text), computed on Unicode code points after case folding, trimming and collapsing whitespace.
 * Two empty texts are identical (1). `"Albertsons"` vs `"Albertson's"` is 10/11 ≈ 0.909.
 */
export function fuzzySimilarity(text: string, target: string): number {
  const a = normalize(text);
  const b = normalize(target);
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return 1 - (previous[b.length] as number) / longer;
}
