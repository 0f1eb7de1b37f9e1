import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DefinitionIssueCode } from '../../src/definition/definition-issue-code.ts';
import { checkDefinitionSchema } from '../../src/definition/definition-schema.ts';
import { validateWorkflowDefinition } from '../../src/definition/validate-definition.ts';
import { STEP_TYPES } from '../../src/step-executor.ts';

const docs = new URL('../../../../docs/', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, docs), 'utf8');

describe('docs/errors/definitions.md', () => {
  it('has one row per issue code, and no other', () => {
    const rows = [...read('errors/definitions.md').matchAll(/^\|\s*`([A-Z_]+)`\s*\|/gm)].map(
      (m) => m[1],
    );
    expect([...rows].sort()).toEqual(Object.values(DefinitionIssueCode).sort());
  });
});

describe('docs/workflows.md', () => {
  const blocks = [...read('workflows.md').matchAll(/```json\n([\s\S]*?)```/g)].map(
    (m) => JSON.parse(m[1] ?? 'null') as Record<string, unknown>,
  );

  it('lists every issue code among its checks', () => {
    const text = read('workflows.md');
    const missing = Object.values(DefinitionIssueCode).filter(
      (code) => !text.includes(`\`${code}\``),
    );
    expect(missing).toEqual([]);
  });

  it('has examples', () => {
    expect(blocks.length).toBeGreaterThan(14);
  });

  it('its whole definitions validate clean', () => {
    const definitions = blocks.filter((b) => 'steps' in b);
    expect(definitions.length).toBeGreaterThan(0);
    for (const definition of definitions)
      expect(validateWorkflowDefinition(definition)).toEqual([]);
  });

  it('its step examples match the schema and cover every step type', () => {
    const steps = blocks.filter((b) => 'type' in b);
    for (const step of steps) expect(checkDefinitionSchema({ steps: [step] })).toEqual([]);
    expect(new Set(steps.map((s) => s.type))).toEqual(new Set(STEP_TYPES));
  });
});
