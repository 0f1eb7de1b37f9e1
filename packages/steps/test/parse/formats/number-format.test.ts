import { describe, expect, it } from 'vitest';
import { formatCellValue } from '../../../src/parse/formats/number-format.ts';

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
