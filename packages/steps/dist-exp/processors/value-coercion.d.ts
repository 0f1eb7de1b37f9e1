/**
 * Text to typed values: dates to `yyyy-mm-dd`, amounts to numbers (US and European separators,
 * parentheses for negatives), currency to `{ amount, iso_4217 }`, booleans and enum members.
 * Each returns `undefined` when the text does not hold a value of that type.
 */
/**
 * The first date in `text` as `yyyy-mm-dd`. Numeric dates with dots are day first; with slashes
 * or dashes month first unless impossible, or unless `dayFirst` says the document writes them
 * day first (03/04/2024 is 3 April then).
 */
export declare function parseDate(text: string, dayFirst?: boolean): string | undefined;
/** The ISO 4217 code named in `text` by code or symbol. */
export declare function parseCurrencyCode(text: string): string | undefined;
/** The first number in `text`: `1,234.56`, `1.234,56`, `1 234,56`, `(12.00)` and `-12` forms. */
export declare function parseNumber(text: string): number | undefined;
/** A currency value; `defaultCode` applies when the text names none. */
export declare function parseCurrency(text: string, defaultCode: string | null): {
    amount: number;
    iso_4217: string | null;
} | undefined;
/** Yes/no style text as a boolean. */
export declare function parseBoolean(text: string): boolean | undefined;
/** The enum member `text` names (exact, then as a whole word inside the text). */
export declare function matchEnum<T extends string | number | boolean>(text: string, values: readonly T[]): T | undefined;
//# sourceMappingURL=value-coercion.d.ts.map