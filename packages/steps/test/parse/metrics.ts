function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}.,-]+/u)
    .map((word) => word.replace(/^[.,-]+|[.,-]+$/g, ''))
    .filter((word) => word !== '');
}

/** Share of the expected words (as a multiset) found in the actual text. */
export function wordRecall(expected: string, actual: string): number {
  const want = words(expected);
  if (want.length === 0) return 1;
  const have = new Map<string, number>();
  for (const word of words(actual)) have.set(word, (have.get(word) ?? 0) + 1);
  let found = 0;
  for (const word of want) {
    const count = have.get(word) ?? 0;
    if (count > 0) {
      found++;
      have.set(word, count - 1);
    }
  }
  return found / want.length;
}

/** Share of expected cells whose text equals the actual cell at the same row and column. */
export function tableCellAccuracy(
  expected: readonly (readonly string[])[],
  actual: readonly (readonly (string | undefined)[])[],
): number {
  let total = 0;
  let right = 0;
  expected.forEach((row, r) => {
    row.forEach((cell, c) => {
      total++;
      if ((actual[r]?.[c] ?? '').trim() === cell.trim()) right++;
    });
  });
  return total === 0 ? 1 : right / total;
}
