/**
 * JSON for the command line's input files, with the line and column of a syntax error. Node's
 * `JSON.parse` says "Unexpected end of JSON input" or quotes a fragment, but gives no position;
 * jsonc-parser, run only when `JSON.parse` has refused the text, finds where (strict JSON: no
 * comments, no trailing commas).
 */
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

/** Where and why a text is not JSON; `line` and `column` count from 1. */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
  /** The text of that line, for a caret under the column. */
  readonly source: string;
}

/** The outcome of {@link parseJsonText}. */
export type JsonTextResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: JsonSyntaxError };

const WHAT: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':'",
  CommaExpected: "expected ',' or the end of the list",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: 'unexpected text after the JSON value',
  InvalidCommentToken: 'comments are not JSON',
  UnexpectedEndOfComment: 'comments are not JSON',
  UnexpectedEndOfString: 'the string is not closed',
  UnexpectedEndOfNumber: 'malformed number',
  InvalidUnicode: 'malformed \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'control character in a string (write it escaped)',
};

/** The 1-based line and column of `offset` in `text`, and that line's text. */
export function positionOf(
  text: string,
  offset: number,
): { line: number; column: number; source: string } {
  const at = Math.max(0, Math.min(offset, text.length));
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = text.indexOf('\n', at);
  return {
    line: before.split('\n').length,
    column: at - lineStart + 1,
    source: text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd).replace(/\r$/, ''),
  };
}

function describe(text: string, error: ParseError): string {
  const what = WHAT[printParseErrorCode(error.error)] ?? 'not valid JSON';
  if (error.offset >= text.length) {
    return text.trim() === '' ? 'the file is empty' : `${what}: the file ends too early`;
  }
  const found = text.slice(error.offset, error.offset + Math.max(1, Math.min(error.length, 20)));
  return `${what}, found ${JSON.stringify(found)}`;
}

/** The offset of the trailing comma the error is about (`[1, 2,]`), if it is about one. */
function trailingComma(text: string, error: ParseError): number | undefined {
  const found = text[error.offset];
  if (found !== ']' && found !== '}') return undefined;
  let i = error.offset - 1;
  while (i >= 0 && /\s/.test(text[i] ?? '')) i--;
  return text[i] === ',' ? i : undefined;
}

/** Parses `text` as JSON; a syntax error comes back with its line and column. */
export function parseJsonText(text: string): JsonTextResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (thrown) {
    const errors: ParseError[] = [];
    parse(text, errors, {
      disallowComments: true,
      allowTrailingComma: false,
      allowEmptyContent: false,
    });
    const [first] = errors;
    if (first) {
      const comma = trailingComma(text, first);
      if (comma !== undefined) {
        const message = 'a comma before a closing bracket or brace is not JSON';
        return { ok: false, error: { ...positionOf(text, comma), message } };
      }
      return {
        ok: false,
        error: { ...positionOf(text, first.offset), message: describe(text, first) },
      };
    }
    // What jsonc-parser accepts and JSON.parse does not: V8 names a position for some of it.
    const message = (thrown as Error).message;
    const position = /at position (\d+)/.exec(message);
    return {
      ok: false,
      error: { ...positionOf(text, position ? Number(position[1]) : 0), message },
    };
  }
}

/** "at line L, column C: message", then the line and a caret under the column. */
export function formatJsonSyntaxError(error: JsonSyntaxError): string {
  const shown = error.source.length > 120 ? `${error.source.slice(0, 117)}...` : error.source;
  const where = `at line ${error.line}, column ${error.column}: ${error.message}`;
  if (shown.trim() === '') return where;
  const caret = error.column <= shown.length + 1 ? `\n    ${' '.repeat(error.column - 1)}^` : '';
  return `${where}\n    ${shown}${caret}`;
}
