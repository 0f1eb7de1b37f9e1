import { toNumber, toText } from '../coerce.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import type { FormulaValue } from '../values.ts';
import { flatten } from './aggregate.ts';
import { type BuiltinFunction, builtin } from './builtin-function.ts';
import { formatText } from './format-text.ts';
import { parseValue } from './parse-value.ts';

function text(value: FormulaValue | undefined, site: Site, position: number): string {
  return toText(value ?? null, site, `argument ${position}`) ?? '';
}

function count(
  value: FormulaValue | undefined,
  site: Site,
  position: number,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const n = toNumber(value, site, `argument ${position}`) ?? fallback;
  return Math.trunc(n);
}

function nonNegative(n: number, site: Site, position: number): number {
  if (n < 0)
    valueError(site, FormulaErrorCode.InvalidArgument, `argument ${position} must not be negative`);
  return n;
}

const REGEX_CACHE = new Map<string, RegExp>();
const MAX_PATTERN = 1000;

function compileRegex(pattern: string, flags: string, site: Site): RegExp {
  const key = `${flags}/${pattern}`;
  let regex = REGEX_CACHE.get(key);
  if (regex === undefined) {
    if (pattern.length > MAX_PATTERN) {
      valueError(
        site,
        FormulaErrorCode.InvalidArgument,
        `the pattern is longer than ${MAX_PATTERN} characters`,
      );
    }
    try {
      regex = new RegExp(pattern, flags);
    } catch (error) {
      return valueError(
        site,
        FormulaErrorCode.InvalidArgument,
        `invalid regular expression: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (REGEX_CACHE.size > 500) REGEX_CACHE.clear();
    REGEX_CACHE.set(key, regex);
  }
  return regex;
}

/** Turns an Excel SEARCH pattern (`?` one character, `*` any run, `~` escapes) into a RegExp source. */
function wildcardSource(pattern: string): string {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '~' && i + 1 < pattern.length) {
      source += (pattern[++i] as string).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (ch === '?') source += '[\\s\\S]';
    else if (ch === '*') source += '[\\s\\S]*?';
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return source;
}

function startPosition(value: FormulaValue | undefined, within: string, site: Site): number {
  const start = count(value, site, 3, 1);
  if (start < 1 || start > within.length + 1) {
    valueError(site, FormulaErrorCode.InvalidArgument, `start ${start} is outside the text`);
  }
  return start;
}

/** Built-in text functions. */
export const textFunctions: readonly BuiltinFunction[] = [
  builtin({
    name: 'LEN',
    category: 'text',
    minArgs: 1,
    signature: 'LEN(text)',
    summary: 'The number of characters (UTF-16 code units, as in Excel).',
    examples: [{ formula: 'LEN("invoice")', result: 7 }],
    apply: ([value], site) => text(value, site, 1).length,
  }),
  builtin({
    name: 'LOWER',
    category: 'text',
    minArgs: 1,
    signature: 'LOWER(text)',
    summary: 'Lower-cases text.',
    examples: [{ formula: 'LOWER("ABC")', result: 'abc' }],
    apply: ([value], site) => text(value, site, 1).toLowerCase(),
  }),
  builtin({
    name: 'UPPER',
    category: 'text',
    minArgs: 1,
    signature: 'UPPER(text)',
    summary: 'Upper-cases text.',
    examples: [{ formula: 'UPPER("abc")', result: 'ABC' }],
    apply: ([value], site) => text(value, site, 1).toUpperCase(),
  }),
  builtin({
    name: 'TRIM',
    category: 'text',
    minArgs: 1,
    signature: 'TRIM(text)',
    summary:
      'Removes leading and trailing spaces and collapses runs of spaces to one (as in Excel).',
    examples: [{ formula: 'TRIM("  a   b ")', result: 'a b' }],
    apply: ([value], site) => text(value, site, 1).replace(/ +/g, ' ').replace(/^ | $/g, ''),
  }),
  builtin({
    name: 'LEFT',
    category: 'text',
    minArgs: 1,
    maxArgs: 2,
    signature: 'LEFT(text, [count])',
    summary: 'The first `count` characters (default 1).',
    examples: [{ formula: 'LEFT("INV-001", 3)', result: 'INV' }],
    apply: ([value, n], site) =>
      text(value, site, 1).slice(0, nonNegative(count(n, site, 2, 1), site, 2)),
  }),
  builtin({
    name: 'RIGHT',
    category: 'text',
    minArgs: 1,
    maxArgs: 2,
    signature: 'RIGHT(text, [count])',
    summary: 'The last `count` characters (default 1).',
    examples: [{ formula: 'RIGHT("INV-001", 3)', result: '001' }],
    apply: ([value, n], site) => {
      const s = text(value, site, 1);
      const k = nonNegative(count(n, site, 2, 1), site, 2);
      return k === 0 ? '' : s.slice(Math.max(0, s.length - k));
    },
  }),
  builtin({
    name: 'MID',
    category: 'text',
    minArgs: 3,
    signature: 'MID(text, start, count)',
    summary: '`count` characters starting at position `start` (1-based).',
    examples: [{ formula: 'MID("INV-001", 5, 3)', result: '001' }],
    apply: ([value, start, n], site) => {
      const s = text(value, site, 1);
      const from = count(start, site, 2, 1);
      if (from < 1) valueError(site, FormulaErrorCode.InvalidArgument, 'start must be at least 1');
      const k = nonNegative(count(n, site, 3, 0), site, 3);
      return s.slice(from - 1, from - 1 + k);
    },
  }),
  builtin({
    name: 'CONCAT',
    category: 'text',
    minArgs: 1,
    maxArgs: Number.POSITIVE_INFINITY,
    broadcast: 'none',
    nulls: 'pass',
    signature: 'CONCAT(text1, [text2, …])',
    summary:
      'Joins all values into one text, arrays item by item; NULL is skipped (use `&` for per-item joining).',
    examples: [
      { formula: 'CONCAT("a", 1, TRUE)', result: 'a1TRUE' },
      { formula: 'CONCAT(x)', scope: { x: ['a', null, 'b'] }, result: 'ab' },
    ],
    apply: (args, site) =>
      flatten(args)
        .map((value) => toText(value, site, 'an argument') ?? '')
        .join(''),
  }),
  builtin({
    name: 'SUBSTITUTE',
    category: 'text',
    minArgs: 3,
    maxArgs: 4,
    signature: 'SUBSTITUTE(text, old, new, [instance])',
    summary:
      'Replaces `old` with `new` (case-sensitive): every occurrence, or only the `instance`-th.',
    examples: [
      { formula: 'SUBSTITUTE("a-b-c", "-", "")', result: 'abc' },
      { formula: 'SUBSTITUTE("a-b-c", "-", "+", 2)', result: 'a-b+c' },
    ],
    apply: ([value, old, replacement, instance], site) => {
      const s = text(value, site, 1);
      const from = text(old, site, 2);
      const to = text(replacement, site, 3);
      if (from === '') return s;
      if (instance === undefined) return s.split(from).join(to);
      const nth = count(instance, site, 4, 1);
      if (nth < 1)
        valueError(site, FormulaErrorCode.InvalidArgument, 'instance must be at least 1');
      let at = -1;
      for (let k = 0; k < nth; k++) {
        at = s.indexOf(from, at + (k === 0 ? 1 : from.length));
        if (at === -1) return s;
      }
      return s.slice(0, at) + to + s.slice(at + from.length);
    },
  }),
  builtin({
    name: 'FIND',
    category: 'text',
    minArgs: 2,
    maxArgs: 3,
    signature: 'FIND(find, within, [start])',
    summary:
      'The 1-based position of `find` in `within`, case-sensitive; not found is a VALUE_ERROR (use IFERROR).',
    examples: [{ formula: 'FIND("b", "abcb")', result: 2 }],
    apply: ([needle, haystack, start], site) => {
      const within = text(haystack, site, 2);
      const from = startPosition(start, within, site);
      const at = within.indexOf(text(needle, site, 1), from - 1);
      if (at === -1) valueError(site, FormulaErrorCode.NotFound, 'the text was not found');
      return at + 1;
    },
  }),
  builtin({
    name: 'SEARCH',
    category: 'text',
    minArgs: 2,
    maxArgs: 3,
    signature: 'SEARCH(find, within, [start])',
    summary:
      'Like FIND but case-insensitive, with Excel wildcards `?` (one character), `*` (any run) and `~` (escape).',
    examples: [{ formula: 'SEARCH("B?", "abcb")', result: 2 }],
    apply: ([needle, haystack, start], site) => {
      const within = text(haystack, site, 2);
      const from = startPosition(start, within, site);
      const regex = compileRegex(wildcardSource(text(needle, site, 1)), 'iu', site);
      const match = regex.exec(within.slice(from - 1));
      if (match === null) valueError(site, FormulaErrorCode.NotFound, 'the text was not found');
      return match.index + from;
    },
  }),
  builtin({
    name: 'REGEXMATCH',
    category: 'text',
    minArgs: 2,
    maxArgs: 3,
    signature: 'REGEXMATCH(text, pattern, [case_insensitive])',
    summary:
      'TRUE if the JavaScript regular expression matches somewhere in the text (as in Google Sheets); case-sensitive unless the third argument is TRUE.',
    examples: [
      { formula: 'REGEXMATCH("INV-2024-001", "^INV-\\d{4}-\\d+$")', result: true },
      { formula: 'REGEXMATCH("abc", "B", TRUE)', result: true },
    ],
    apply: ([value, pattern, insensitive], site) => {
      const flags = insensitive === true || insensitive === 1 ? 'iu' : 'u';
      const regex = compileRegex(text(pattern, site, 2), flags, site);
      return regex.test(text(value, site, 1));
    },
  }),
  builtin({
    name: 'TEXT',
    category: 'text',
    minArgs: 2,
    signature: 'TEXT(value, format)',
    summary:
      'Formats a number or date with an Excel format: `0`, `0.00`, `#,##0.00`, `0%`, `yyyy-mm-dd`, `dd/mm/yyyy`, `mmm d, yyyy`, ….',
    examples: [
      { formula: 'TEXT(1234.5, "#,##0.00")', result: '1,234.50' },
      { formula: 'TEXT(0.256, "0.0%")', result: '25.6%' },
      { formula: 'TEXT(DATE(2024, 3, 5), "yyyy-mm-dd")', result: '2024-03-05' },
    ],
    apply: ([value, format], site) => formatText(value ?? null, text(format, site, 2), site),
  }),
  builtin({
    name: 'VALUE',
    category: 'text',
    minArgs: 1,
    signature: 'VALUE(text)',
    summary:
      'Reads text as a number: `"1,234.50"`, `"$12"`, `"15%"`, `"(12)"`, ISO dates (as serial numbers); otherwise a VALUE_ERROR.',
    examples: [
      { formula: 'VALUE("1,234.50")', result: 1234.5 },
      { formula: 'VALUE("15%")', result: 0.15 },
    ],
    apply: ([value], site) => parseValue(value ?? null, site),
  }),
];
