import { Ajv, type ValidateFunction } from 'ajv';
import type { ValidationIssue } from '../errors.ts';
import { type AjvIssueOptions, ajvErrorsToIssues } from './ajv-issues.ts';

/**
 * The engine's one Ajv instance. Every schema the engine validates against is compiled here: the
 * workflow definition's, the resource services' request schemas, processor configs, and the
 * executors' `configSchema`s. It is not strict, because executor schemas are their authors' and
 * may carry keywords and formats Ajv does not know; the engine's own schemas are compiled strictly
 * by a test (`test/validation/strict-schemas.test.ts`), which is where strict mode earns its keep.
 * `allErrors` and `verbose` give the issue mapper every error and the schema around it.
 */
const ajv = new Ajv({
  allErrors: true,
  verbose: true,
  strict: false,
  validateFormats: false,
  logger: false,
});

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * The validator of a schema the engine or an executor owns, compiled once per schema object.
 * Throws Ajv's error when the schema itself is invalid.
 */
export function compileSchema(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** The issues of `data` against a compiled validator (empty when valid). */
export function issuesOf(
  validate: ValidateFunction,
  data: unknown,
  options: AjvIssueOptions = {},
): ValidationIssue[] {
  return validate(data) ? [] : ajvErrorsToIssues(validate.errors, options);
}

const inputSchemas: object[] = [];

/** The request schemas of the resource services (for the test that compiles them strictly). */
export function requestSchemas(): readonly object[] {
  return inputSchemas;
}

/**
 * A checker of request input: compiles `schema` once and lists the issues of each input, coded
 * by kind (REQUIRED, UNKNOWN_PROPERTY, INVALID_TYPE, INVALID_VALUE) unless `options.code` says.
 */
export function inputChecker(
  schema: object,
  options: AjvIssueOptions = {},
): (input: unknown) => ValidationIssue[] {
  inputSchemas.push(schema);
  const validate = compileSchema(schema);
  return (input) => issuesOf(validate, input, options);
}

/**
 * Whether `schema` (a user's, such as an extractor's output schema) is a JSON Schema, checked
 * against the draft-07 meta-schema. Unknown keywords (descriptions for a model) are fine.
 */
export function metaSchemaIssues(schema: object, path: string, code: string): ValidationIssue[] {
  try {
    if (ajv.validateSchema(schema) === true) return [];
  } catch (error) {
    // validateSchema throws for a `$schema` it has no meta-schema for.
    return [
      {
        code,
        path: `${path}.$schema`,
        message: `names a meta-schema this engine does not know (${error instanceof Error ? error.message : String(error)}); use draft-07 or omit it`,
      },
    ];
  }
  return ajvErrorsToIssues(ajv.errors, { code, basePath: path });
}

/**
 * User schemas (extraction schemas of extractors and workflow steps) are compiled apart from the
 * engine's: their `$id`s would otherwise collide in the shared instance's registry, from one call
 * to the next. This compiler forgets each schema after use and is renewed now and then, because
 * Ajv never forgets nested `$id`s; a failure is confirmed by a fresh compiler before it counts.
 * A fresh compiler costs tens of milliseconds, so it is reused.
 */
const userCompiler = {
  current: undefined as Ajv | undefined,
  uses: 0,
  // The meta-schema check ran before (metaSchemaIssues), when the schema was stored.
  fresh: (): Ajv =>
    new Ajv({
      allErrors: true,
      verbose: true,
      strict: false,
      logger: false,
      validateSchema: false,
    }),
};

function withUserCompiler<T>(schema: object, use: (compiler: Ajv) => T): T {
  if (userCompiler.uses++ >= 200) {
    userCompiler.current = undefined;
    userCompiler.uses = 0;
  }
  userCompiler.current ??= userCompiler.fresh();
  const compiler = userCompiler.current;
  try {
    return use(compiler);
  } catch {
    userCompiler.current = undefined;
    return use(userCompiler.fresh());
  } finally {
    userCompiler.current?.removeSchema(schema);
  }
}

// Compiling costs milliseconds; the same schema is checked again on publish and unchanged
// updates, so remember recent answers (bounded: cleared when full).
const compileProblems = new Map<string, string | null>();
const COMPILE_CACHE_SIZE = 256;

/**
 * Why Ajv cannot compile a user's schema (one that passed {@link metaSchemaIssues}), or undefined.
 */
export function userSchemaProblem(schema: object): string | undefined {
  const key = JSON.stringify(schema);
  const known = compileProblems.get(key);
  if (known !== undefined) return known ?? undefined;
  let problem: string | undefined;
  try {
    withUserCompiler(schema, (compiler) => compiler.compile(schema));
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  if (compileProblems.size >= COMPILE_CACHE_SIZE) compileProblems.clear();
  compileProblems.set(key, problem ?? null);
  return problem;
}

/**
 * The issues of `data` against a user's schema (a corrected extraction output against the
 * extractor's schema), or a single issue when the schema cannot be compiled.
 */
export function userSchemaIssues(
  schema: object,
  data: unknown,
  options: AjvIssueOptions,
): ValidationIssue[] {
  let validate: ValidateFunction;
  try {
    validate = withUserCompiler(schema, (compiler) => compiler.compile(schema));
  } catch (error) {
    return [
      {
        code: options.code ?? 'INVALID_VALUE',
        path: options.basePath ?? '',
        message: `cannot be checked: its schema does not compile (${error instanceof Error ? error.message : String(error)})`,
      },
    ];
  }
  return issuesOf(validate, data, options);
}
