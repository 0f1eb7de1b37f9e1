import { basename, extname } from 'node:path';
import type { StepDefinition } from '@docflow/engine';
import { loadJsonFile } from './load-json-file.ts';

/** A workflow file: `{ name?, steps }`, or just the array of steps. */
export interface WorkflowFile {
  readonly name: string;
  /** What `validateWorkflowDefinition` checks: `{ steps }` as found in the file. */
  readonly definition: unknown;
  readonly steps: readonly StepDefinition[];
}

/** Reads a workflow file; the name defaults to the file's base name. */
export async function loadDefinition(path: string): Promise<WorkflowFile> {
  const json = await loadJsonFile(path, 'workflow file');
  const object = Array.isArray(json) ? { steps: json } : json;
  const record = (object ?? {}) as { name?: unknown; steps?: unknown };
  const name =
    typeof record.name === 'string' && record.name !== ''
      ? record.name
      : basename(path, extname(path));
  const definition =
    typeof object === 'object' && object !== null && !Array.isArray(object)
      ? { steps: record.steps }
      : object;
  return {
    name,
    definition,
    steps: (Array.isArray(record.steps) ? record.steps : []) as StepDefinition[],
  };
}
