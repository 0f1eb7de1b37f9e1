const NON_ASCII = /[^ -~\t\n\r]/;

/**
 * Case-folds text for case-insensitive comparison and search. ASCII text is lower-cased.
 * Other text is NFC-normalised, then upper-cased and lower-cased, which gives Unicode full case
 * folding for the cases that matter: `"ß"` and `"ẞ"` fold to `"ss"` (so `"straße" = "STRASSE"`),
 * final sigma `ς` folds to `σ`, ligatures such as `ﬁ` fold to `fi`. Dotted capital `İ` folds to
 * `i̇` (i + combining dot), as in Unicode's default (non-Turkic) folding, so it does not equal `i`.
 */
export function foldCase(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  // Capital ẞ upper-cases to itself and lower-cases to ß, which full folding maps to "ss".
  return text.normalize('NFC').toUpperCase().toLowerCase().replaceAll('ß', 'ss');
}
