import {
  compileNumberFormat,
  evaluateFormula,
  formatCellValue,
  formatGeneral,
} from '@docflow/formulas';
import { describe, expect, it } from 'vitest';

describe('formatCellValue: Excel number formats', () => {
  it.each([
    [1234.5, '"$"#,##0.00', '$1,234.50'],
    [0.256, '0.0%', '25.6%'],
    [-1234.5, '#,##0.00;(#,##0.00)', '(1,234.50)'],
    [-5, '0.00', '-5.00'],
    [0, '0.00;-0.00;"zero"', 'zero'],
    [1234567.891, '#,##0', '1,234,568'],
    [12, '[$€-407] #,##0.00', '€ 12.00'],
    [42, '0" units"', '42 units'],
    [12345.678, '0.00E+00', '1.23E+04'],
    [1.23456, 'General', '1.23456'],
    [1 / 3, undefined, '0.333333333'],
    [45000, 'yyyy-mm-dd', '2023-03-15'],
    [0.5, 'h:mm:ss', '12:00:00'],
    [new Date(Date.UTC(2024, 2, 5, 14, 7, 9)), 'm/d/yy h:mm AM/PM', '3/5/24 2:07 PM'],
    [new Date(Date.UTC(2024, 0, 15)), 'd-mmm-yy', '15-Jan-24'],
    [new Date(Date.UTC(2024, 0, 15)), 'dddd, mmmm d, yyyy', 'Monday, January 15, 2024'],
    [new Date(Date.UTC(2024, 0, 15)), 'General', '2024-01-15'],
  ] as const)('%s under %s is %s', (value, format, expected) => {
    expect(formatCellValue(value, format)).toBe(expected);
  });
});

describe('compileNumberFormat: formats compiled once per format string', () => {
  it('returns the cached formatter for a format it has seen', () => {
    expect(compileNumberFormat('#,##0.00')).toBe(compileNumberFormat('#,##0.00'));
    expect(compileNumberFormat(undefined)).toBe(compileNumberFormat('General'));
    expect(compileNumberFormat('')).toBe(compileNumberFormat('General'));
  });

  it('keeps nothing of one value for the next', () => {
    const money = compileNumberFormat('"$"#,##0.00;[Red]("$"#,##0.00);"nil"');
    expect([1234.5, -2, 0, 0.004, 1e6].map(money)).toEqual([
      '$1,234.50',
      '($2.00)',
      'nil',
      '$0.00',
      '$1,000,000.00',
    ]);
  });

  it.each([
    // "m" is minutes after an hour or before seconds, else the month; decided per position.
    ['h:mm m/d', new Date(Date.UTC(2024, 6, 9, 8, 5)), '8:05 7/9'],
    ['mm:ss', new Date(Date.UTC(2024, 6, 9, 8, 5, 3)), '05:03'],
    ['yy\\-mm "Q"', new Date(Date.UTC(2024, 6, 9)), '24-07 Q'],
    ['hh:mm A/P', 0.75, '06:00 P'],
  ] as const)('%s formats %s as %s', (format, value, expected) => {
    const formatter = compileNumberFormat(format);
    expect(formatter(value)).toBe(expected);
    expect(formatter(value)).toBe(expected);
  });
});

describe('formatGeneral', () => {
  it.each([
    [150001.5, '150001.5'],
    [-2.5, '-2.5'],
    [0.1 + 0.2, '0.3'],
    [-(0.1 + 0.2), '-0.3'],
    [1234567.891, '1234567.891'],
    [12345678.9123, '12345678.91'],
    [2 / 3, '0.666666667'],
  ])('shows %s as %s (at most 11 characters)', (value, expected) => {
    expect(formatGeneral(value)).toBe(expected);
  });
});

describe('one implementation for cells and TEXT', () => {
  it.each([
    // Optional decimals, minimum integer digits, Excel's rounding of the decimal value.
    [2.5, '0.##', '2.5'],
    [2, '#.##', '2.'],
    [5, '000', '005'],
    [-2.5, '000', '-003'],
    [1.005, '0%', '101%'],
    [-0.001, '0.00', '-0.00'],
    [0.5, '.00', '.50'],
    // Literal commas stay when quoted; unquoted ones are grouping marks.
    [7, '"Total, "0', 'Total, 7'],
    [0.000123, '0.00E+00', '1.23E-04'],
    // Accounting padding and fills leave no spaces at the ends.
    [12, '_("$"* #,##0.00_)', '$12.00'],
    // Serial 60 is Excel's 1900-02-29; a time that rounds up to midnight rolls the day over.
    [60, 'yyyy-mm-dd', '1900-02-29'],
    [45306.999999999, 'yyyy-mm-dd hh:mm:ss', '2024-01-16 00:00:00'],
    [45306.5, 'h:mm:ss AM/PM', '12:00:00 PM'],
  ] as const)('%s under %s is %s', (value, format, expected) => {
    expect(formatCellValue(value, format)).toBe(expected);
  });

  it('is what TEXT returns', () => {
    for (const [value, format] of [
      [1234.5, '#,##0.00;(#,##0.00)'],
      [-1234.5, '#,##0.00;(#,##0.00)'],
      [45306.75, 'dddd d mmmm yyyy h:mm'],
      [0.256, '0.0%'],
    ] as const) {
      expect(evaluateFormula(`TEXT(${value}, "${format}")`, {})).toEqual({
        ok: true,
        value: formatCellValue(value, format),
      });
    }
  });
});
