import { FormulaError } from './formula-error.ts';
import { FormulaErrorCode } from './formula-error-code.ts';
import type { BroadcastMode, FormulaFunction } from './formula-function.ts';

/** What {@link defineFunction} takes; everything but `name` and `call` has a default. */
export interface FunctionDefinition {
  /** Letters, digits, `_` and `.`, starting with a letter or `_`; case-insensitive. */
  readonly name: string;
  readonly call: FormulaFunction['call'];
  /** Default 0. */
  readonly minArgs?: number;
  /** Default: unlimited. */
  readonly maxArgs?: number;
  /** Default `'all'`: a scalar function applied per item over array arguments. */
  readonly broadcast?: BroadcastMode;
  /** Default `'propagate'`: a NULL argument gives NULL without calling. */
  readonly nulls?: 'propagate' | 'pass';
  /** Default false. Set when `call` returns a promise. */
  readonly async?: boolean;
  readonly signature?: string;
  readonly summary?: string;
}

function invalid(message: string): never {
  throw new FormulaError(FormulaErrorCode.InvalidFunctionDefinition, `defineFunction: ${message}`);
}

/**
 * Declares a host function for `options.functions`. Throws a {@link FormulaError}
 * (FORMULA_INVALID_FUNCTION_DEFINITION) naming the bad field.
 *
 * @example
 * const vat = defineFunction({ name: 'VATRATE', minArgs: 1, maxArgs: 1, call: ([country]) => rates[String(country)] ?? null });
 * evaluateFormula('VATRATE("DE") = 0.19', {}, { functions: [vat] });
 */
export function defineFunction(definition: FunctionDefinition): FormulaFunction {
  if (typeof definition !== 'object' || definition === null) invalid('expects a definition object');
  const { name, call } = definition;
  if (typeof name !== 'string' || !/^[\p{L}_][\p{L}\p{N}_.]*$/u.test(name)) {
    invalid(
      `name must be letters, digits, "_" or "." starting with a letter, got ${JSON.stringify(name)}`,
    );
  }
  if (typeof call !== 'function') invalid(`call of ${name} must be a function`);
  const minArgs = definition.minArgs ?? 0;
  const maxArgs = definition.maxArgs ?? Number.POSITIVE_INFINITY;
  if (!Number.isInteger(minArgs) || minArgs < 0)
    invalid(`minArgs of ${name} must be a non-negative integer`);
  if (maxArgs !== Number.POSITIVE_INFINITY && (!Number.isInteger(maxArgs) || maxArgs < minArgs)) {
    invalid(`maxArgs of ${name} must be an integer not below minArgs`);
  }
  const broadcast = definition.broadcast ?? 'all';
  if (
    broadcast !== 'all' &&
    broadcast !== 'none' &&
    !(Array.isArray(broadcast) && broadcast.every((i) => Number.isInteger(i) && i >= 0))
  ) {
    invalid(`broadcast of ${name} must be 'all', 'none' or a list of argument positions`);
  }
  const nulls = definition.nulls ?? 'propagate';
  if (nulls !== 'propagate' && nulls !== 'pass')
    invalid(`nulls of ${name} must be 'propagate' or 'pass'`);
  const upper = name.toUpperCase();
  return Object.freeze({
    name: upper,
    minArgs,
    maxArgs,
    broadcast,
    nulls,
    async: definition.async === true,
    signature: definition.signature ?? `${upper}(…)`,
    summary: definition.summary ?? '',
    call,
  });
}
