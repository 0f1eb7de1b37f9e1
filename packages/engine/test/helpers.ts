import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineStep, type StepDefinition, type StepExecutor, type StepType } from '@docflow/engine';
import { afterAll } from 'vitest';

const made: string[] = [];
// Each test file evaluates this module anew: its directories go when its tests are done.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temp directory for one test file, removed after its tests. */
export function tempDir(prefix = 'docflow-engine-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** An executor that returns `output(input)` and counts its calls by step name. */
export function fakeStep(
  type: StepType,
  output: (input: { stepName: string; outputs: Record<string, unknown> }) => unknown = () => ({
    ok: true,
  }),
  calls: string[] = [],
): StepExecutor {
  return defineStep({
    type,
    async execute(input) {
      calls.push(input.stepName);
      return { output: output(input as never) as never, usage: { credits: 1 } };
    },
  });
}

/**
 * An output function for {@link fakeStep} that records, by step name, the names of the steps
 * whose outputs the step was given (sorted), and outputs `{ from: stepName }`.
 */
export function recordInputs(
  seen: Record<string, string[]>,
): (input: { stepName: string; outputs: Record<string, unknown> }) => unknown {
  return (input) => {
    seen[input.stepName] = Object.keys(input.outputs).sort();
    return { from: input.stepName };
  };
}

/** A minimal valid config for steps that need one. */
export function minimalConfig(type: StepType): Record<string, unknown> | undefined {
  switch (type) {
    case 'EXTRACT':
      return {
        extractorConfig: { schema: { type: 'object', properties: { total: { type: 'number' } } } },
      };
    case 'EXTERNAL_DATA_VALIDATION':
      return {
        requestOptions: { url: 'http://127.0.0.1:9/check', method: 'POST' },
        failureBehavior: 'EXIT',
      };
    case 'FILE_CONVERSION':
      return { failureBehavior: 'EXIT' };
    default:
      return undefined;
  }
}

/** A definition step as tests write it. */
export interface TestStep {
  name: string;
  type: StepType;
  config?: Record<string, unknown>;
  next?: { step: string }[];
}

/** Types test-built steps as definition steps (validation at run time is the real check). */
export function steps(list: readonly TestStep[]): StepDefinition[] {
  return list as unknown as StepDefinition[];
}

/** A minimal linear definition TRIGGER → PARSE → …steps. */
export function linear(...types: StepType[]): StepDefinition[] {
  const names = ['trigger', ...types.map((t, i) => `${t.toLowerCase()}${i + 1}`)];
  return steps(
    names.map((name, i) => {
      const type: StepType = i === 0 ? 'TRIGGER' : (types[i - 1] as StepType);
      const next = names[i + 1];
      const config = minimalConfig(type);
      return {
        name,
        type,
        ...(config ? { config } : {}),
        ...(next ? { next: [{ step: next }] } : {}),
      };
    }),
  );
}
