import type { JsonValue } from '@docflow/storage';
import type { AttemptVerdict } from './step-attempt.ts';

/** What a secret value is replaced with wherever it would be stored or sent. */
export const REDACTED = '[REDACTED]';

/**
 * Secrets shorter than this are not searched for: replacing every `1` or `ab` of an output would
 * corrupt it and protect nothing.
 */
export const MIN_REDACTED_LENGTH = 4;

/** A replacer of the run's secret values in text, or undefined when the run has none to hide. */
export function secretRedactor(
  secrets: Readonly<Record<string, string>>,
): ((text: string) => string) | undefined {
  const all = Object.values(secrets);
  // Most runs have none: nothing is made for them, on every step.
  if (all.length === 0) return undefined;
  const values = [...new Set(all)]
    .filter((v) => typeof v === 'string' && v.length >= MIN_REDACTED_LENGTH)
    // Longest first, so that a secret containing another is replaced whole.
    .sort((a, b) => b.length - a.length);
  if (values.length === 0) return undefined;
  return (text) => {
    let out = text;
    for (const value of values) if (out.includes(value)) out = out.replaceAll(value, REDACTED);
    return out;
  };
}

/** `value` with every string (and key) passed through `redact`; unchanged parts are shared. */
export function redactJson(value: JsonValue, redact: (text: string) => string): JsonValue {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactJson(v, redact));
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(value)) out[redact(k)] = redactJson(v as JsonValue, redact);
  return out;
}

/**
 * An attempt's verdict with the run's secret values removed from what is stored and sent: the
 * failure or retry message and the output (failure messages, events, webhooks and `get` are
 * made from them). Executors that echo a key in an error ("invalid key sk-…") leak nothing.
 */
export function redactVerdict(
  verdict: AttemptVerdict,
  redact: ((text: string) => string) | undefined,
): AttemptVerdict {
  if (redact === undefined) return verdict;
  switch (verdict.kind) {
    case 'fail':
    case 'retry':
      return { ...verdict, message: redact(verdict.message) };
    case 'complete':
      return {
        ...verdict,
        outcome: { ...verdict.outcome, output: redactJson(verdict.outcome.output, redact) },
      };
    default:
      return verdict;
  }
}
