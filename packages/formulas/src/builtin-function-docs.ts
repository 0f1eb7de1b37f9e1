import type { FunctionCategory, FunctionExample } from './functions/builtin-function.ts';
import { builtinFunctions } from './functions/builtin-functions.ts';

/** The documentation of one built-in function, as data (the README's table is generated from it). */
export interface FunctionDoc {
  readonly name: string;
  readonly category: FunctionCategory;
  readonly signature: string;
  readonly summary: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  /** `'per item'` for scalar functions applied over arrays, `'whole'` for aggregates, or mixed. */
  readonly arrays: 'per item' | 'whole' | 'mixed';
  readonly async: boolean;
  /** Examples; each is checked by a test to evaluate to its `result`. */
  readonly examples: readonly FunctionExample[];
}

/**
 * Describes every built-in function: name, signature, summary and checked examples, in
 * documentation order (by category). Use it to generate reference documentation.
 */
export function builtinFunctionDocs(): readonly FunctionDoc[] {
  return [...builtinFunctions.values()].map((fn) => ({
    name: fn.name,
    category: fn.category,
    signature: fn.signature,
    summary: fn.summary,
    minArgs: fn.minArgs,
    maxArgs: fn.maxArgs,
    arrays: fn.broadcast === 'all' ? 'per item' : fn.broadcast === 'none' ? 'whole' : 'mixed',
    async: fn.async,
    examples: fn.examples,
  }));
}
