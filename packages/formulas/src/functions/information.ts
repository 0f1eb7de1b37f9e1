import { type FormulaValue, isCurrency } from '../values.ts';
import { type BuiltinFunction, builtin } from './builtin-function.ts';

function isPresent(value: FormulaValue): boolean {
  if (value === null || value === undefined || value === '') return false;
  return !(Array.isArray(value) && value.length === 0);
}

/** Built-in information functions (type and presence tests). */
export const informationFunctions: readonly BuiltinFunction[] = [
  builtin({
    name: 'ISPRESENT',
    category: 'information',
    minArgs: 1,
    broadcast: 'none',
    nulls: 'pass',
    signature: 'ISPRESENT(value)',
    summary:
      'TRUE if the value was found: not NULL, not empty text, not an empty array. Takes arrays whole.',
    examples: [
      { formula: 'ISPRESENT(x.address)', scope: { x: { address: '1 Main St' } }, result: true },
      { formula: 'ISPRESENT(x.missing)', scope: { x: {} }, result: false },
      { formula: 'ISPRESENT(x)', scope: { x: [] }, result: false },
    ],
    apply: ([value]) => isPresent(value ?? null),
  }),
  builtin({
    name: 'ISBLANK',
    category: 'information',
    minArgs: 1,
    nulls: 'pass',
    signature: 'ISBLANK(value)',
    summary:
      'TRUE if the value is NULL (empty text is not blank, as in Excel). Per item over arrays.',
    examples: [
      { formula: 'ISBLANK(NULL)', result: true },
      { formula: 'ISBLANK("")', result: false },
    ],
    apply: ([value]) => value === null || value === undefined,
  }),
  builtin({
    name: 'ISNUMBER',
    category: 'information',
    minArgs: 1,
    nulls: 'pass',
    signature: 'ISNUMBER(value)',
    summary:
      'TRUE if the value is a number or a currency amount (numeric text is not). Per item over arrays.',
    examples: [
      { formula: 'ISNUMBER(3)', result: true },
      { formula: 'ISNUMBER("3")', result: false },
    ],
    apply: ([value]) => typeof value === 'number' || isCurrency(value),
  }),
  builtin({
    name: 'ISTEXT',
    category: 'information',
    minArgs: 1,
    nulls: 'pass',
    signature: 'ISTEXT(value)',
    summary: 'TRUE if the value is text. Per item over arrays.',
    examples: [{ formula: 'ISTEXT("a")', result: true }],
    apply: ([value]) => typeof value === 'string',
  }),
];
