import { DEFINITION_LIMITS, retryPolicySchema } from '../definition/definition-schema.ts';
import { EngineError, EngineErrorCode, StepError } from '../errors.ts';
import { inputChecker } from '../validation/json-schema.ts';

/**
 * The retry policy of executor attempts, workflow steps and standalone runs alike: the engine's
 * default (`createEngine({ retry })`), which a workflow step's `retry` overrides field by field.
 * With the engine's default attempt timeout (`stepTimeoutMs`) it makes the {@link AttemptPolicy}.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 3). */
  readonly maxAttempts: number;
  readonly initialIntervalMs: number;
  readonly backoffCoefficient: number;
  readonly maxIntervalMs: number;
}

/** The engine's default retry policy. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  initialIntervalMs: 1000,
  backoffCoefficient: 2,
  maxIntervalMs: 60_000,
};

/** The attempt policy of an engine: its retry policy and the default timeout of an attempt. */
export interface AttemptPolicy {
  readonly retry: RetryPolicy;
  /** An attempt without a timeout of its own (a workflow step's `timeoutMs`) is aborted past this. */
  readonly timeoutMs: number | undefined;
}

/** `createEngine`'s attempt options, in the ranges a workflow step's `retry` and `timeoutMs` have. */
const checkAttemptOptions = inputChecker({
  type: 'object',
  properties: {
    retry: retryPolicySchema,
    stepTimeoutMs: { type: 'integer', minimum: 1, maximum: DEFINITION_LIMITS.maxTimeoutMs },
  },
});

/**
 * The engine's attempt policy from `createEngine({ retry, stepTimeoutMs })`: the retry fields
 * given over {@link DEFAULT_RETRY_POLICY}. Throws INVALID_CONFIGURATION naming each field that is
 * unknown or out of its range.
 */
export function resolveAttemptPolicy(
  retry: Partial<RetryPolicy> | undefined,
  stepTimeoutMs: number | undefined,
): AttemptPolicy {
  const given = Object.fromEntries(
    Object.entries({ retry, stepTimeoutMs }).filter(([, value]) => value !== undefined),
  );
  const issues = checkAttemptOptions(given);
  if (issues.length > 0) {
    const list = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
    throw new EngineError(
      EngineErrorCode.INVALID_CONFIGURATION,
      `Invalid engine options: ${list}`,
      {
        details: { issues },
      },
    );
  }
  const fields = Object.entries(retry ?? {}).filter(([, value]) => value !== undefined);
  return {
    retry: { ...DEFAULT_RETRY_POLICY, ...Object.fromEntries(fields) },
    timeoutMs: stepTimeoutMs,
  };
}

/** Backoff before attempt `attempt + 1`, with ±20% jitter. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  const base = Math.min(
    policy.maxIntervalMs,
    policy.initialIntervalMs * policy.backoffCoefficient ** Math.max(0, attempt - 1),
  );
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** What follows an attempt that threw: another attempt at `at`, or the failure. */
export type ErrorVerdict =
  | { readonly kind: 'retry'; readonly at: string; readonly message: string }
  | { readonly kind: 'fail'; readonly reason: string; readonly message: string };

/**
 * Decides after attempt number `attempt` threw `error`. Retryability lives on the error: a
 * `StepError` says (`retryable`, and its `reason` once attempts run out); anything else thrown
 * is retryable and fails as INTERNAL_ERROR.
 */
export function afterError(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
  now: Date,
): ErrorVerdict {
  const retryable = error instanceof StepError ? error.retryable : true;
  const message = error instanceof Error ? error.message : String(error);
  if (retryable && attempt < policy.maxAttempts) {
    const at = new Date(now.getTime() + backoffMs(policy, attempt, random)).toISOString();
    return { kind: 'retry', at, message };
  }
  return {
    kind: 'fail',
    reason: error instanceof StepError ? error.reason : 'INTERNAL_ERROR',
    message,
  };
}
