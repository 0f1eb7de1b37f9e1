import { arrayFunctions } from './array.ts';
import type { BuiltinFunction } from './builtin-function.ts';
import { dateFunctions } from './date.ts';
import { hostFunctions } from './host.ts';
import { informationFunctions } from './information.ts';
import { logicalFunctions } from './logical.ts';
import { mathFunctions } from './math.ts';
import { textFunctions } from './text.ts';

/** Every built-in function by upper-case name. */
export const builtinFunctions: ReadonlyMap<string, BuiltinFunction> = new Map(
  [
    ...logicalFunctions,
    ...informationFunctions,
    ...mathFunctions,
    ...textFunctions,
    ...dateFunctions,
    ...arrayFunctions,
    ...hostFunctions,
  ].map((fn) => [fn.name, fn]),
);
