import type { Diagnostic } from './diagnostic.ts';
import { FormulaErrorCode } from './formula-error-code.ts';

/** Kinds of lexical token. `segment` is a path segment after a dot (it may start with a digit). */
export type TokenType =
  | 'number'
  | 'string'
  | 'identifier'
  | 'segment'
  | 'operator'
  | '('
  | ')'
  | ','
  | '.'
  | 'end';

/** One lexical token with its source offsets. */
export interface Token {
  readonly type: TokenType;
  /** The source text of the token (for strings: the decoded value). */
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** The result of {@link tokenize}: the tokens, or the first lexical problem. */
export type TokenizeResult =
  | { readonly ok: true; readonly tokens: readonly Token[] }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

const IDENTIFIER = /[\p{L}_][\p{L}\p{N}_]*/uy;
const SEGMENT = /[\p{L}\p{N}_]+/uy;
const WHITESPACE = /\s+/y;

function column(offset: number): string {
  return `column ${offset + 1}`;
}

function match(pattern: RegExp, source: string, at: number): string | undefined {
  pattern.lastIndex = at;
  const m = pattern.exec(source);
  return m === null ? undefined : m[0];
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function digitAt(source: string, at: number, length: number): boolean {
  return at < length && isDigit(source.charCodeAt(at));
}

/** Scans `\d+(\.\d*)?|\.\d+` with an optional exponent, without a regular expression. */
function scanNumber(source: string, at: number): string | undefined {
  // Reads stay in bounds: charCodeAt past the end deoptimises V8's optimised code.
  const length = source.length;
  let end = at;
  while (digitAt(source, end, length)) end++;
  const whole = end > at;
  if (end < length && source.charCodeAt(end) === 46) {
    end++;
    const fractionStart = end;
    while (digitAt(source, end, length)) end++;
    if (!whole && end === fractionStart) return undefined;
  } else if (!whole) {
    return undefined;
  }
  const e = end < length ? source.charCodeAt(end) : 0;
  if (e === 101 || e === 69) {
    let k = end + 1;
    const sign = k < length ? source.charCodeAt(k) : 0;
    if (sign === 43 || sign === 45) k++;
    if (digitAt(source, k, length)) {
      while (digitAt(source, k, length)) k++;
      end = k;
    }
  }
  return source.slice(at, end);
}

function isWordCode(code: number, digits: boolean): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    code === 95 ||
    (digits && code >= 48 && code <= 57)
  );
}

/**
 * Scans an ASCII identifier (or a segment, which may start with a digit) without a regular
 * expression; undefined if the word contains other characters, which the Unicode patterns read.
 */
function scanWord(source: string, at: number, segment: boolean): string | undefined {
  if (!isWordCode(source.charCodeAt(at), segment)) return undefined;
  let end = at + 1;
  while (end < source.length && isWordCode(source.charCodeAt(end), true)) end++;
  if (end < source.length && source.charCodeAt(end) > 127) return undefined;
  return source.slice(at, end);
}

/**
 * Splits a formula into tokens. A leading `=` (as typed in a spreadsheet) is skipped.
 * Never throws; the first problem comes back as a diagnostic.
 */
export function tokenize(source: string): TokenizeResult {
  const tokens: Token[] = [];
  let i = 0;
  const leading = match(WHITESPACE, source, 0);
  if (leading !== undefined) i = leading.length;
  if (source[i] === '=') i++;
  while (i < source.length) {
    const ch = source[i] as string;
    const code = source.charCodeAt(i);
    if (code === 32 || code === 9 || code === 10 || code === 13) {
      i++;
      continue;
    }
    if (code > 127) {
      const space = match(WHITESPACE, source, i);
      if (space !== undefined) {
        i += space.length;
        continue;
      }
    }
    const previous = tokens[tokens.length - 1];
    if (previous?.type === '.') {
      const segment = scanWord(source, i, true) ?? match(SEGMENT, source, i);
      if (segment !== undefined) {
        tokens.push({ type: 'segment', text: segment, start: i, end: i + segment.length });
        i += segment.length;
        continue;
      }
    }
    if (
      ch === '.' &&
      (previous?.type === 'identifier' || previous?.type === 'segment') &&
      previous.end === i
    ) {
      tokens.push({ type: '.', text: '.', start: i, end: i + 1 });
      i++;
      continue;
    }
    const number = (code >= 48 && code <= 57) || code === 46 ? scanNumber(source, i) : undefined;
    if (number !== undefined) {
      const value = Number(number);
      if (!Number.isFinite(value)) {
        return {
          ok: false,
          diagnostic: {
            code: FormulaErrorCode.InvalidNumber,
            message: `Number ${number} at ${column(i)} is too large`,
            span: { start: i, end: i + number.length },
          },
        };
      }
      tokens.push({ type: 'number', text: number, start: i, end: i + number.length });
      i += number.length;
      continue;
    }
    const identifier =
      scanWord(source, i, false) ??
      (code > 127 || isWordCode(code, false) ? match(IDENTIFIER, source, i) : undefined);
    if (identifier !== undefined) {
      tokens.push({ type: 'identifier', text: identifier, start: i, end: i + identifier.length });
      i += identifier.length;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      let value = '';
      for (;;) {
        const close = source.indexOf('"', j);
        if (close === -1) {
          return {
            ok: false,
            diagnostic: {
              code: FormulaErrorCode.UnterminatedString,
              message: `Text starting at ${column(i)} has no closing double quote`,
              span: { start: i, end: source.length },
            },
          };
        }
        value += source.slice(j, close);
        if (source[close + 1] === '"') {
          value += '"';
          j = close + 2;
          continue;
        }
        j = close + 1;
        break;
      }
      tokens.push({ type: 'string', text: value, start: i, end: j });
      i = j;
      continue;
    }
    if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ type: ch, text: ch, start: i, end: i + 1 });
      i++;
      continue;
    }
    const two = source.slice(i, i + 2);
    if (two === '<>' || two === '<=' || two === '>=') {
      tokens.push({ type: 'operator', text: two, start: i, end: i + 2 });
      i += 2;
      continue;
    }
    if ('+-*/^&=<>'.includes(ch)) {
      tokens.push({ type: 'operator', text: ch, start: i, end: i + 1 });
      i++;
      continue;
    }
    const hint =
      ch === '\u201c' || ch === '\u201d' || ch === "'"
        ? '; text must be in straight double quotes ("…")'
        : ch === ';'
          ? '; separate arguments with a comma'
          : ch === '!' || ch === '|'
            ? '; use NOT, AND, OR or <>'
            : '';
    const width = (source.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
    return {
      ok: false,
      diagnostic: {
        code: FormulaErrorCode.UnexpectedCharacter,
        message: `Unexpected character ${JSON.stringify(source.slice(i, i + width))} at ${column(i)}${hint}`,
        span: { start: i, end: i + width },
      },
    };
  }
  tokens.push({ type: 'end', text: '', start: source.length, end: source.length });
  return { ok: true, tokens };
}
