import { STEP_TYPES, type StepType } from '../step-executor.ts';

/** A `next` entry as found in unchecked input: only the fields that have the right type. */
export interface NextView {
  readonly index: number;
  readonly step: string | undefined;
  readonly classificationId: string | undefined;
  readonly conditionId: string | undefined;
  readonly result: string | undefined;
}

/**
 * A step as found in unchecked input. Graph checks run on this view so that they still report
 * what they can when the schema check has already found problems elsewhere.
 */
export interface StepView {
  readonly index: number;
  readonly name: string | undefined;
  readonly type: StepType | undefined;
  readonly config: unknown;
  readonly next: readonly NextView[];
  readonly retry: unknown;
}

const STEP_TYPE_SET: ReadonlySet<string> = new Set(STEP_TYPES);

/** `value` when it is a plain object, else undefined. */
export function asRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** `value` when it is an array, else an empty array. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `value` when it is a string, else undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The steps of an unchecked definition, or undefined when it has no `steps` array. */
export function viewSteps(definition: unknown): StepView[] | undefined {
  const steps = asRecord(definition)?.steps;
  if (!Array.isArray(steps)) return undefined;
  return steps.map((raw: unknown, index): StepView => {
    const step = asRecord(raw);
    const type = asString(step?.type);
    return {
      index,
      name: asString(step?.name),
      type: type !== undefined && STEP_TYPE_SET.has(type) ? (type as StepType) : undefined,
      config: step?.config,
      next: asArray(step?.next).map((entryRaw, entryIndex): NextView => {
        const entry = asRecord(entryRaw);
        return {
          index: entryIndex,
          step: asString(entry?.step),
          classificationId: asString(entry?.classificationId),
          conditionId: asString(entry?.conditionId),
          result: asString(entry?.result),
        };
      }),
      retry: step?.retry,
    };
  });
}
