import { describe, expect, it } from 'vitest';
import { formatJsonSyntaxError, parseJsonText } from '../src/json-text.ts';

const errorOf = (text: string) => {
  const result = parseJsonText(text);
  if (result.ok) throw new Error(`parsed: ${text}`);
  return result.error;
};

describe('parseJsonText', () => {
  it('parses JSON as JSON.parse does', () => {
    expect(parseJsonText('{ "a": [1, 2.5e3, "x\\n", null, true] }')).toEqual({
      ok: true,
      value: { a: [1, 2500, 'x\n', null, true] },
    });
  });

  it.each([
    ['{\n  "a": 1,\n  "b": }\n', 3, 8, 'expected a value, found "}"'],
    ['{ "steps": [', 1, 13, "expected ']': the file ends too early"],
    ['[\n  1,\n  2,\n]', 3, 4, 'a comma before a closing bracket or brace is not JSON'],
    ['{ "a": 1 }\n{ "b": 2 }', 2, 1, 'unexpected text after the JSON value, found "{"'],
    ['{ "a": 1 // note\n}', 1, 10, 'comments are not JSON, found "// note"'],
    ['{ a: 1 }', 1, 3, 'unexpected character, found "a"'],
    ['{ "a": 1, 2 }', 1, 11, 'expected a property name in double quotes, found "2"'],
    ['{ "a" 1 }', 1, 7, `expected ':', found "1"`],
    [
      '{ "a": "tab\there" }',
      1,
      8,
      'control character in a string (write it escaped), found "\\"tab\\there\\""',
    ],
    ['', 1, 1, 'the file is empty'],
    ['{\r\n  "a": ,\r\n}', 2, 8, 'expected a value, found ","'],
  ])('places the error in %j at line %i, column %i', (text, line, column, message) => {
    expect(errorOf(text)).toMatchObject({ line, column, message });
  });

  it('shows the line with a caret under the column', () => {
    expect(formatJsonSyntaxError(errorOf('{\n  "total": 12 5\n}'))).toBe(
      [
        'at line 2, column 15: expected \',\' or the end of the list, found "5"',
        '      "total": 12 5',
        '                  ^',
      ].join('\n'),
    );
  });
});
