import { readdirSync, readFileSync } from 'node:fs';
import type { WorkflowDefinition } from '../../src/definition/workflow-definition.ts';

const dir = new URL('./fixtures/', import.meta.url);

/** The valid definitions under fixtures/, by file name. */
export function validFixtures(): [name: string, definition: WorkflowDefinition][] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.workflow.json'))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as WorkflowDefinition]);
}

/** An invalid definition and the issues it must report, in order. */
export interface InvalidCase {
  readonly description: string;
  readonly definition: unknown;
  readonly issues: readonly { readonly code: string; readonly path: string }[];
}

/** The cases under fixtures/invalid/, by file name. */
export function invalidCases(): [name: string, testCase: InvalidCase][] {
  const invalid = new URL('invalid/', dir);
  return readdirSync(invalid)
    .filter((f) => f.endsWith('.case.json'))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(new URL(f, invalid), 'utf8')) as InvalidCase]);
}
