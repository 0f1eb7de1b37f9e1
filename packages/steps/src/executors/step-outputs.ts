/**
 * Reading the outputs a path carries: which are extraction outputs (`{ value, metadata }`), and
 * the formula scope of docs/formulas.md (a classification step is its type, an extraction
 * step its value, an external validation step its response data, `metadata` the run's).
 * Outputs after a COLLECT are arrays, one entry per arrived path.
 */
import type { StepInput } from '@docflow/engine';
import type { ExtractOutput } from '../processors/provider.ts';

/** True when `value` looks like an extraction output. */
export function isExtractOutput(value: unknown): value is ExtractOutput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as { value?: unknown; metadata?: unknown };
  return (
    typeof v.value === 'object' &&
    v.value !== null &&
    !Array.isArray(v.value) &&
    typeof v.metadata === 'object' &&
    v.metadata !== null
  );
}

/** An extraction output with the step it came from, in path order. */
export interface SourcedExtractOutput {
  readonly stepName: string;
  readonly output: ExtractOutput;
}

/** Every extraction output on the path, in path order (arrays in arrival order). */
export function extractOutputsOf(outputs: StepInput['outputs']): SourcedExtractOutput[] {
  const found: SourcedExtractOutput[] = [];
  for (const [stepName, value] of Object.entries(outputs)) {
    const list = Array.isArray(value) ? value : [value];
    for (const item of list) if (isExtractOutput(item)) found.push({ stepName, output: item });
  }
  return found;
}

function scopeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scopeValue);
  if (typeof value !== 'object' || value === null) return value;
  const v = value as Record<string, unknown>;
  if (isExtractOutput(v)) return v.value;
  if (typeof v.id === 'string' && typeof v.type === 'string' && typeof v.confidence === 'number')
    return v.type;
  if (typeof v.status === 'number' && 'data' in v) return v.data;
  if (typeof v.response === 'object' && v.response !== null && 'data' in (v.response as object)) {
    return (v.response as { data: unknown }).data;
  }
  return v;
}

/** The formula scope of a step: step names to their values, and `metadata`. */
export function formulaScope(
  input: Pick<StepInput<unknown>, 'outputs' | 'metadata'>,
): Record<string, unknown> {
  const scope: Record<string, unknown> = {};
  for (const [stepName, value] of Object.entries(input.outputs))
    scope[stepName] = scopeValue(value);
  scope.metadata = input.metadata;
  return scope;
}
