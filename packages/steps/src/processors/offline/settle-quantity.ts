import type { ExtractValue } from '../provider.ts';

/**
 * Digits OCR reads for one another in a scanned table's figures (a `1` with a speck beside it
 * reads `4` or `7`; an `8` with a gap reads `3` or `0`).
 */
const CONFUSED: Readonly<Record<string, string>> = {
  '0': '8',
  '1': '47',
  '3': '8',
  '4': '1',
  '5': '6',
  '6': '5',
  '7': '1',
  '8': '03',
};

/** Readings of a whole number `text` other than itself: confused digits swapped, each way. */
function otherReadings(text: string): number[] {
  let readings = [''];
  for (const digit of text) {
    const options = [digit, ...(CONFUSED[digit] ?? '')];
    readings = readings.flatMap((start) =>
      options.filter((d) => start !== '' || d !== '0').map((d) => start + d),
    );
  }
  return [...new Set(readings.filter((r) => r !== text).map(Number))];
}

/**
 * The quantity a row's own arithmetic settles when OCR read it wrong (`44` for `11`): the
 * quantity × unit price differs from the amount, and exactly one other reading of the quantity's
 * digits (see {@link CONFUSED}) makes them agree. Undefined when the row agrees already, when no
 * reading or more than one does, or when the quantity is no whole number of at most 4 digits.
 */
export function settledQuantity(
  quantity: number,
  unit: number,
  amount: number,
): number | undefined {
  const text = String(quantity);
  if (!/^\d{1,4}$/.test(text) || unit === 0) return undefined;
  const agrees = (q: number) => Math.abs(q * unit - amount) <= 0.011 + Math.abs(amount) * 1e-6;
  if (agrees(quantity)) return undefined;
  const fitting = otherReadings(text).filter(agrees);
  return fitting.length === 1 ? fitting[0] : undefined;
}

/** A figure of an item's value: a number, or a currency's amount. */
export function figureOf(value: ExtractValue | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const amount = (value as { readonly [key: string]: ExtractValue }).amount;
    return typeof amount === 'number' ? amount : undefined;
  }
  return undefined;
}
