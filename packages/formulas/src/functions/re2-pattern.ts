import { RE2JS } from 're2js';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import { COST, spend } from '../work-meter.ts';

/**
 * A regular expression compiled by re2js, a JavaScript port of RE2: matching takes time linear
 * in the text (no backtracking, so no pattern can make it exponential), and the syntax is RE2's,
 * as in Google Sheets' REGEXMATCH. Backreferences and lookaround do not exist in RE2.
 * (docs/decisions/0011-regular-expressions-and-formula-budget.md)
 */
export interface Pattern {
  readonly regex: RE2JS;
  /** Instructions of the compiled program: the work per character of text is proportional to it. */
  readonly size: number;
}

/** The longest pattern accepted; RE2 also refuses repeat counts above 1,000. */
export const MAX_PATTERN_LENGTH = 1000;
const CACHE_LIMIT = 500;

// Compiled patterns (or the reason a pattern is refused), by flags and source.
const cache = new Map<string, Pattern | string>();

function explain(source: string, message: string): string {
  const reason = message.replace(/^error parsing regexp: /, '');
  if (/\\[1-9]/.test(source)) return `${reason} (backreferences such as \\1 are not supported)`;
  if (/\(\?<?[=!]/.test(source)) return `${reason} (lookahead and lookbehind are not supported)`;
  return reason;
}

function compile(source: string, caseInsensitive: boolean): Pattern | string {
  if (source.length > MAX_PATTERN_LENGTH) {
    return `the pattern is longer than ${MAX_PATTERN_LENGTH} characters`;
  }
  try {
    const regex = RE2JS.compile(source, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    return { regex, size: regex.programSize() };
  } catch (error) {
    return explain(source, error instanceof Error ? error.message : String(error));
  }
}

/**
 * Compiles an RE2 pattern (cached by flags and source); an invalid or unsupported pattern is a
 * VALUE_ERROR naming the function.
 */
export function compilePattern(source: string, caseInsensitive: boolean, site: Site): Pattern {
  const key = `${caseInsensitive ? 'i' : '-'}${source}`;
  let entry = cache.get(key);
  if (entry === undefined) {
    entry = compile(source, caseInsensitive);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, entry);
  }
  if (typeof entry === 'string') {
    return valueError(
      site,
      FormulaErrorCode.InvalidArgument,
      `the pattern is not a valid RE2 regular expression: ${entry}`,
    );
  }
  return entry;
}

// RE2 steps through the program once per character: charged before matching, at the rate of its
// slowest measured path, so that the budget bounds the time whatever the pattern and text.
function charge(pattern: Pattern, text: string, site: Site): void {
  spend((text.length + 1) * pattern.size * COST.regexStep, site);
}

/** True if the pattern matches somewhere in the text. */
export function patternMatches(pattern: Pattern, text: string, site: Site): boolean {
  charge(pattern, text, site);
  return pattern.regex.test(text);
}

/** The UTF-16 index of the pattern's first match in the text, or -1. */
export function patternIndex(pattern: Pattern, text: string, site: Site): number {
  charge(pattern, text, site);
  const matcher = pattern.regex.matcher(text);
  return matcher.find() ? matcher.start() : -1;
}

/** An RE2 pattern that matches `text` literally. */
export function literalPattern(text: string): string {
  return RE2JS.quote(text);
}
