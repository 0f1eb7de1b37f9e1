import type { JsonValue } from '@docflow/storage';
import jsonata from 'jsonata';
import { re2RegExpClass } from './re2-regexp.ts';

/** The limits of one WEBHOOK_RESPONSE body evaluation. */
export interface BodyExpressionLimits {
  /** Work units: one per expression node evaluated, one per array item or 64 characters produced, RE2 steps. */
  readonly work: number;
  /** Nesting depth of the evaluation (recursive functions). */
  readonly depth: number;
  /** The event loop turns after this much work, so a body never holds it for long. */
  readonly turnEvery: number;
  /** The longest text any step may produce. */
  readonly textLength: number;
  /** The most items of any sequence or array. */
  readonly items: number;
}

/**
 * Defaults: 200,000 units is a few hundred milliseconds of JSONata's CPU at most, spread over
 * turns of the event loop of about 1,000 nodes (a millisecond or two each); a body larger than
 * 1 MiB of text or 100,000 items is not a webhook body.
 */
export const BODY_EXPRESSION_LIMITS: BodyExpressionLimits = {
  work: 200_000,
  depth: 200,
  turnEvery: 1_000,
  textLength: 1_048_576,
  items: 100_000,
};

/** RE2 steps (characters × instructions) that cost one unit. */
const RE2_STEPS_PER_UNIT = 32;
const CHARS_PER_UNIT = 64;

/** The outcome of {@link evaluateBodyExpression}. */
export type BodyExpressionResult =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly message: string };

class LimitReached extends Error {}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    if (typeof message === 'string')
      return typeof code === 'string' ? `${code}: ${message}` : message;
  }
  return String(error);
}

type Bound = (args: readonly unknown[]) => number;

const textLength = (value: unknown): number => (typeof value === 'string' ? value.length : 0);

/** Builtins whose result can be far larger than their arguments, and a bound on that result. */
const AMPLIFIERS: Readonly<Record<string, Bound>> = {
  // $pad(text, width, char): |width| characters.
  pad: ([text, width]) => Math.max(textLength(text), Math.abs(Number(width) || 0)),
  // $join(texts, separator): the texts and a separator between each two.
  join: ([texts, separator]) => {
    const items = Array.isArray(texts) ? texts : [texts];
    let total = 0;
    for (const item of items) total += textLength(item);
    return total + Math.max(0, items.length - 1) * textLength(separator);
  },
  // $replace(text, pattern, replacement, limit): at most one replacement per position.
  replace: ([text, , replacement, limit]) => {
    const matches = Math.min(
      textLength(text) + 1,
      typeof limit === 'number' ? limit : Number.POSITIVE_INFINITY,
    );
    return textLength(text) + matches * textLength(replacement);
  },
};

interface Builtin {
  readonly implementation: (...args: unknown[]) => unknown;
  readonly signature: string;
}

// The builtins of AMPLIFIERS as JSONata defines them, read once.
let builtins: Promise<Map<string, Builtin>> | undefined;

function originalBuiltins(): Promise<Map<string, Builtin>> {
  builtins ??= (async () => {
    const found = new Map<string, Builtin>();
    for (const name of Object.keys(AMPLIFIERS)) {
      const fn = (await jsonata(`$${name}`).evaluate({})) as {
        implementation: (...args: unknown[]) => unknown;
        signature: { definition: string };
      };
      found.set(name, { implementation: fn.implementation, signature: fn.signature.definition });
    }
    return found;
  })();
  return builtins;
}

/**
 * Evaluates a WEBHOOK_RESPONSE `body` (a JSONata expression) against the path's result, under
 * limits: a work budget counted per expression node (JSONata's `__evaluate_entry` hook), the
 * event loop turning every `turnEvery` units, a depth limit, bounded text and sequence sizes
 * (including the builtins that amplify, `$pad`, `$join`, `$replace`, checked before they run),
 * and regular expressions on RE2. Never throws: a failure is `{ ok: false, message }`.
 */
export async function evaluateBodyExpression(
  source: string,
  input: JsonValue,
  limits: BodyExpressionLimits = BODY_EXPRESSION_LIMITS,
): Promise<BodyExpressionResult> {
  let work = 0;
  let sinceTurn = 0;
  const charge = (units: number): void => {
    work += units;
    sinceTurn += units;
    if (work > limits.work) {
      throw new LimitReached(
        `the body expression needs more work than its budget of ${limits.work.toLocaleString('en-US')} units`,
      );
    }
  };
  const checkSize = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length > limits.textLength) {
        throw new LimitReached(
          `the body expression made a text of ${value.length.toLocaleString('en-US')} characters, more than ${limits.textLength.toLocaleString('en-US')}`,
        );
      }
      charge(value.length / CHARS_PER_UNIT);
    } else if (Array.isArray(value)) {
      if (value.length > limits.items) {
        throw new LimitReached(
          `the body expression made ${value.length.toLocaleString('en-US')} items, more than ${limits.items.toLocaleString('en-US')}`,
        );
      }
      charge(value.length);
    }
  };
  try {
    const expression = jsonata(source, {
      stack: limits.depth,
      sequence: limits.items,
      RegexEngine: re2RegExpClass((steps) => charge(steps / RE2_STEPS_PER_UNIT)),
    });
    expression.assign(Symbol.for('jsonata.__evaluate_entry') as unknown as string, async () => {
      charge(1);
      if (sinceTurn >= limits.turnEvery) {
        sinceTurn = 0;
        await nextTurn();
      }
    });
    expression.assign(
      Symbol.for('jsonata.__evaluate_exit') as unknown as string,
      (_node: unknown, _input: unknown, _environment: unknown, result: unknown) =>
        checkSize(result),
    );
    const originals = await originalBuiltins();
    for (const [name, bound] of Object.entries(AMPLIFIERS)) {
      const original = originals.get(name);
      if (original === undefined) continue;
      expression.registerFunction(
        name,
        function (this: unknown, ...args: unknown[]) {
          const size = bound(args);
          if (size > limits.textLength) {
            throw new LimitReached(
              `$${name} would make a text of up to ${size.toLocaleString('en-US')} characters, more than ${limits.textLength.toLocaleString('en-US')}`,
            );
          }
          charge(size / CHARS_PER_UNIT);
          return original.implementation.apply(this, args);
        },
        original.signature,
      );
    }
    const value: unknown = await expression.evaluate(input);
    checkSize(value);
    // JSONata's sequences carry flags, and a body may end in a function: keep what JSON keeps.
    const json = JSON.stringify(value);
    return { ok: true, value: json === undefined ? null : (JSON.parse(json) as JsonValue) };
  } catch (error) {
    if (error instanceof RangeError) {
      return { ok: false, message: `the body expression failed: ${error.message}` };
    }
    return { ok: false, message: describe(error) };
  }
}
