import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import '../../src/index.ts';
import { workflowDefinitionSchema } from '../../src/definition/definition-schema.ts';
import {
  classifierConfigSchema,
  extractorConfigSchema,
  splitterConfigSchema,
} from '../../src/processors/processor-config-schemas.ts';
import { requestSchemas } from '../../src/validation/json-schema.ts';

// The engine validates with one lenient Ajv instance (executor schemas are their authors'); its
// own schemas must still pass strict mode, which catches typos in keywords and types.
const strict = () =>
  new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false, logger: false });

describe("the engine's own schemas", () => {
  it('compile in strict mode', () => {
    const schemas = [
      workflowDefinitionSchema,
      extractorConfigSchema,
      classifierConfigSchema,
      splitterConfigSchema,
      ...requestSchemas(),
    ];
    expect(requestSchemas().length).toBeGreaterThan(5);
    for (const schema of schemas) expect(() => strict().compile(schema)).not.toThrow();
  });
});
