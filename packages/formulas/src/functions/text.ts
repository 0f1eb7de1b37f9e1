import { toNumber, toText } from '../coerce.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { type Site, valueError } from '../site.ts';
import type { FormulaValue } from '../values.ts';
import { MAX_TEXT_LENGTH, spendText, textTooLong } from '../work-meter.ts';
import { flatten } from './aggregate.ts';
import { type BuiltinFunction, builtin } from './builtin-function.ts';
import { formatText } from './format-text.ts';
import { parseValue } from './parse-value.ts';
import { compilePattern, literalPattern, patternIndex, patternMatches } from './re2-pattern.ts';

/** Reads a text argument, charging its length to the evaluation's budget. */
function text(value: FormulaValue | undefined, site: Site, position: number): string {
  const s = toText(value ?? null, site, `argument ${position}`) ?? '';
  spendText(s.length, site);
  return s;
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

/** Turns an Excel SEARCH pattern (`?` one character, `*` any run, `~` escapes) into an RE2 source. */
function wildcardSource(pattern: string): string {
  let source = '';
  let literal = '';
  const flush = (): void => {
    if (literal !== '') source += literalPattern(literal);
    literal = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '~' && i + 1 < pattern.length) literal += pattern[++i] as string;
    else if (ch === '?' || ch === '*') {
      flush();
      source += ch === '?' ? '(?s:.)' : '(?s:.*?)';
    } else literal += ch;
  }
  flush();
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
    apply: (args, site) => {
      const parts = flatten(args, site).map((value) => toText(value, site, 'an argument') ?? '');
      let length = 0;
      for (const part of parts) length += part.length;
      if (length > MAX_TEXT_LENGTH) textTooLong(length, site);
      spendText(length, site);
      return parts.join('');
    },
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
      if (instance === undefined) {
        // Count first, so that a result past the limit is refused before it is built.
        let occurrences = 0;
        for (let at = s.indexOf(from); at !== -1; at = s.indexOf(from, at + from.length)) {
          occurrences++;
        }
        const length = s.length + occurrences * (to.length - from.length);
        if (length > MAX_TEXT_LENGTH) textTooLong(length, site);
        spendText(length, site);
        return occurrences === 0 ? s : s.replaceAll(from, () => to);
      }
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
      const pattern = compilePattern(wildcardSource(text(needle, site, 1)), true, site);
      const at = patternIndex(pattern, within.slice(from - 1), site);
      if (at === -1) valueError(site, FormulaErrorCode.NotFound, 'the text was not found');
      return at + from;
    },
  }),
  builtin({
    name: 'REGEXMATCH',
    category: 'text',
    minArgs: 2,
    maxArgs: 3,
    signature: 'REGEXMATCH(text, pattern, [case_insensitive])',
    summary:
      'TRUE if the regular expression (RE2 syntax, as in Google Sheets) matches somewhere in the text; case-sensitive unless the third argument is TRUE. Backreferences and lookaround are not supported; matching takes time linear in the text.',
    examples: [
      { formula: 'REGEXMATCH("INV-2024-001", "^INV-\\d{4}-\\d+$")', result: true },
      { formula: 'REGEXMATCH("abc", "B", TRUE)', result: true },
    ],
    apply: ([value, source, insensitive], site) => {
      const caseInsensitive = insensitive === true || insensitive === 1;
      const pattern = compilePattern(text(source, site, 2), caseInsensitive, site);
      return patternMatches(pattern, text(value, site, 1), site);
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
