import { FormulaErrorCode } from './formula-error-code.ts';
import { type Site, valueError } from './site.ts';

/**
 * The longest text a formula may produce: Excel's limit for a cell. Longer inputs (an extracted
 * field, a parsed page) can be read, searched and measured; a result past it is a VALUE_ERROR.
 */
export const MAX_TEXT_LENGTH = 32_767;

/**
 * The most items an array may have inside an evaluation. Arrays come from the data (a path
 * through line items) and keep their length through broadcasting, so this bounds the data one
 * formula works on: 100,000 items is more than the rows of a 750-page document at 100 rows a
 * page, and one pass over it at the number price fits the default budget five times.
 */
export const MAX_ARRAY_LENGTH = 100_000;

/**
 * Work units one evaluation may spend by default (see `FormulaOptions.workBudget`). A unit is
 * about 10 ns of the evaluator's work: the prices in {@link COST} come from the slowest
 * constructions measured for each kind of work (bench/src/formulas/budget.ts), so that the
 * default holds the thread for a few milliseconds at most.
 */
export const DEFAULT_WORK_BUDGET = 500_000;

/** What each kind of work costs, in units. */
export const COST = {
  /** One array item through an operator or function (pairing, coercion, the call). */
  item: 16,
  /** One item through an arithmetic or comparison operator on plain numbers. */
  numberItem: 2,
  /** One item of a path projection, or one leaf an aggregate walks. */
  pathItem: 2,
  /** One character of text read, case-folded or produced. */
  char: 1,
  /** One character of text times one instruction of a regular expression's program. */
  regexStep: 32,
  /** One cell of FUZZYMATCH's Levenshtein table (a pair of characters). */
  levenshteinCell: 1,
  /** One comparison of two values (UNIQUE compares each item with the ones it kept). */
  comparison: 8,
  /** Reading a date or a number out of text (DATEVALUE and the date functions, VALUE). */
  parse: 48,
  /** Formatting a value with an Excel format (TEXT). */
  format: 112,
} as const;

/** The work an evaluation has spent and may spend. */
export interface WorkMeter {
  spent: number;
  readonly limit: number;
}

const UNMETERED: WorkMeter = { spent: 0, limit: Number.POSITIVE_INFINITY };

/*
 * The meter of the evaluation running now. Evaluation is synchronous (an asynchronous one is a
 * series of synchronous passes, each entered here), so one module-level slot is the running
 * evaluation's meter without threading it through every closure and helper; a host function that
 * evaluates another formula enters and leaves its own meter inside.
 */
let current: WorkMeter = UNMETERED;

/** Makes `meter` the running evaluation's meter; returns the one to restore with {@link leaveMeter}. */
export function enterMeter(meter: WorkMeter): WorkMeter {
  const outer = current;
  current = meter;
  return outer;
}

/** Restores the meter that {@link enterMeter} returned. */
export function leaveMeter(outer: WorkMeter): void {
  current = outer;
}

/** Spends `units` of the running evaluation's budget; past it, a VALUE_ERROR naming `site`. */
export function spend(units: number, site: Site): void {
  const meter = current;
  meter.spent += units;
  if (meter.spent > meter.limit) {
    valueError(
      site,
      FormulaErrorCode.BudgetExceeded,
      `the evaluation needs more work than its budget of ${meter.limit.toLocaleString('en-US')} units (options.workBudget); the data or the formula is too large for one evaluation`,
    );
  }
}

/** Spends the units of reading, folding or producing `length` characters of text. */
export function spendText(length: number, site: Site): void {
  spend(length * COST.char, site);
}

/**
 * Spends the units of `length` items of an array met by an operator or function, at `price`
 * units each ({@link COST}`.item` by default), after checking its length.
 */
export function spendArray(length: number, site: Site, price: number = COST.item): void {
  checkArrayLength(length, site);
  spend(length * price, site);
}

/** A VALUE_ERROR naming `site` if an array of `length` items is longer than {@link MAX_ARRAY_LENGTH}. */
export function checkArrayLength(length: number, site: Site): void {
  if (length > MAX_ARRAY_LENGTH) {
    valueError(
      site,
      FormulaErrorCode.ArrayTooLong,
      `an array of ${length.toLocaleString('en-US')} items is longer than the ${MAX_ARRAY_LENGTH.toLocaleString('en-US')} a formula may work on`,
    );
  }
}

/** Returns `text` unless it is longer than {@link MAX_TEXT_LENGTH}: then a VALUE_ERROR naming `site`. */
export function boundedText(text: string, site: Site): string {
  if (text.length > MAX_TEXT_LENGTH) textTooLong(text.length, site);
  return text;
}

/** The VALUE_ERROR of a text result of `length` characters, past {@link MAX_TEXT_LENGTH}. */
export function textTooLong(length: number, site: Site): never {
  return valueError(
    site,
    FormulaErrorCode.TextTooLong,
    `the result would be ${length.toLocaleString('en-US')} characters long, more than the ${MAX_TEXT_LENGTH.toLocaleString('en-US')} a text may have`,
  );
}
