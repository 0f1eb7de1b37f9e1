/**
 * How extracted values are compared with the truth, strictly and leniently, how extracted line
 * items are aligned with the true ones, and word recall against a reference text.
 *
 * - strict: text equal after collapsing whitespace; numbers within half a cent; dates equal.
 * - lenient: text equal ignoring case, accents, punctuation, spacing and a leading honorific
 *   ("Dr. Maria Lopez" = "Maria Lopez", "INV−1" = "INV-1", "DE89 3704" = "DE893704"); numbers
 *   equal in absolute value (a debit given without its sign); dates equal.
 */

export type Kind = 'string' | 'date' | 'number' | 'enum';

const HONORIFIC = /^(dr|mr|mrs|ms|miss|prof|sir|madam)\.?\s+/i;

function looseText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(HONORIFIC, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** True when `actual` matches `expected` under the strict (or lenient) rule. */
export function matches(kind: Kind, expected: unknown, actual: unknown, lenient: boolean): boolean {
  if (actual === null || actual === undefined) return false;
  if (kind === 'number') {
    const a = typeof actual === 'number' ? actual : Number.NaN;
    const e = expected as number;
    if (Math.abs(a - e) < 0.005) return true;
    return lenient && Math.abs(Math.abs(a) - Math.abs(e)) < 0.005;
  }
  if (typeof actual !== 'string' || typeof expected !== 'string') return false;
  if (kind === 'date') return actual === expected;
  if (kind === 'enum') return actual.toLowerCase() === expected.toLowerCase();
  if (lenient) return looseText(actual) === looseText(expected) && looseText(expected) !== '';
  return actual.replace(/\s+/g, ' ').trim() === expected.replace(/\s+/g, ' ').trim();
}

/**
 * The longest order-preserving pairing of true and extracted items in which every field of a
 * pair matches (an LCS): extra or missing rows cost only themselves, not every row after them.
 * Returns the indices of the extracted rows that pair with a true row; the others are extra rows
 * (a row a reader would see that the document does not hold as an item, or one misread).
 */
export function pairItems(
  truth: readonly Readonly<Record<string, unknown>>[],
  got: readonly Readonly<Record<string, unknown>>[],
  kinds: Readonly<Record<string, Kind>>,
  lenient: boolean,
): number[] {
  const same = (t: Readonly<Record<string, unknown>>, g: Readonly<Record<string, unknown>>) =>
    Object.entries(t).every(([k, v]) => matches(kinds[`item.${k}`] ?? 'string', v, g[k], lenient));
  const n = truth.length;
  const m = got.length;
  const table: number[][] = [new Array<number>(m + 1).fill(0)];
  const equal: boolean[][] = [];
  for (let i = 1; i <= n; i++) {
    const previous = table[i - 1] as number[];
    const row = new Array<number>(m + 1).fill(0);
    const eq = new Array<boolean>(m + 1).fill(false);
    for (let j = 1; j <= m; j++) {
      eq[j] = same(truth[i - 1] as Record<string, unknown>, got[j - 1] as Record<string, unknown>);
      row[j] = eq[j]
        ? (previous[j - 1] as number) + 1
        : Math.max(previous[j] as number, row[j - 1] as number);
    }
    table.push(row);
    equal.push(eq);
  }
  const paired: number[] = [];
  for (let i = n, j = m; i > 0 && j > 0; ) {
    const here = (table[i] as number[])[j] as number;
    if (
      (equal[i - 1] as boolean[])[j] &&
      here === ((table[i - 1] as number[])[j - 1] as number) + 1
    ) {
      paired.push(j - 1);
      i--;
      j--;
    } else if (((table[i - 1] as number[])[j] as number) === here) i--;
    else j--;
  }
  return paired.reverse();
}

/** How many true items the extracted ones match (the length of `pairItems`). */
export function alignItems(
  truth: readonly Readonly<Record<string, unknown>>[],
  got: readonly Readonly<Record<string, unknown>>[],
  kinds: Readonly<Record<string, Kind>>,
  lenient: boolean,
): number {
  return pairItems(truth, got, kinds, lenient).length;
}

/** Words of a text as recall counts them: letters and digits, markdown marks dropped. */
export function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/[\s|]+/)
    .map((w) => w.replace(/^[#*_>`~\-•[\](){}"'“”‘’.,;:!?]+|[*_`~"'“”‘’.,;:!?)\]}]+$/g, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
}

/** The share of `reference`'s words (as a multiset) found in `candidate`. */
export function wordRecall(reference: string, candidate: string): { found: number; total: number } {
  const counts = new Map<string, number>();
  for (const w of words(candidate)) counts.set(w, (counts.get(w) ?? 0) + 1);
  let found = 0;
  let total = 0;
  for (const w of words(reference)) {
    total++;
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      found++;
      counts.set(w, c - 1);
    }
  }
  return { found, total };
}
