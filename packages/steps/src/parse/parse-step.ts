import { defineStep, StepError, type StepExecutor, type StepSuccess } from '@docflow/engine';
import type { ParseLimits, PdfWorkers } from './format-context.ts';
import type { ParseProgress } from './page-progress.ts';
import { parseStepConfigSchema } from './parse-config-schema.ts';
import { parseDocument } from './parse-document.ts';
import type { ParseConfig, ParseRunOutput } from './parse-output.ts';
import { resolveParseConfig } from './resolve-parse-config.ts';

/** The PARSE step's `config` (docs/workflows.md): the interface's ParseConfig, optional. */
export interface ParseStepConfig {
  readonly parseConfig?: ParseConfig;
}

/** Options of {@link parseStep}. */
export interface ParseStepOptions {
  /** Resource limits applied to every file (see {@link ParseLimits}). */
  readonly limits?: Partial<ParseLimits>;
  /**
   * Hears the pages of each file as they are parsed (PDFs and multi-page images; see
   * `parseDocument`'s `onProgress`), with the run, step run and file they belong to.
   */
  readonly onProgress?: (progress: ParseStepProgress) => void;
  /** Whether long PDFs are read on worker threads too (see `parseDocument`'s `pdfWorkers`). */
  readonly pdfWorkers?: PdfWorkers;
}

/** Where a PARSE step is, for a progress display. */
export interface ParseStepProgress extends ParseProgress {
  readonly runId: string;
  readonly stepRunId: string;
  readonly fileId: string;
  readonly fileName: string;
}

type JsonValue = StepSuccess['output'];
type JsonObject = Extract<JsonValue, Record<string, unknown>>;

function reportTo(
  listener: (progress: ParseStepProgress) => void,
  context: { readonly runId: string; readonly stepRunId: string },
  file: { readonly id: string; readonly name: string },
): (progress: ParseProgress) => void {
  return (progress) =>
    listener({
      runId: context.runId,
      stepRunId: context.stepRunId,
      fileId: file.id,
      fileName: file.name,
      ...progress,
    });
}

/** ParseRunOutput is plain JSON data by construction; this states it to the type system. */
function asJson(output: ParseRunOutput | Record<string, unknown>): JsonValue {
  return output as unknown as JsonValue;
}

/**
 * The PARSE executor: reads the path's file(s) and parses each into the interface's ParseRunOutput.
 * One file: the output is that file's ParseRunOutput. Several (a package): `chunks` are the
 * files' chunks in order, `metadata` is the first file's, and `files` lists
 * `{ fileId, output }` per file. A document problem is a `failure` naming the file.
 *
 * @example
 * const engine = createEngine({ steps: [parseStep({ limits: { maxFileBytes: 50e6 } })] });
 */
export function parseStep(options: ParseStepOptions = {}): StepExecutor<ParseStepConfig> {
  return defineStep<ParseStepConfig>({
    type: 'PARSE',
    configSchema: parseStepConfigSchema,
    requiresConfig: false,
    // A parse run reports the ParseConfig it used, the interface's defaults applied.
    appliedConfig(config) {
      const resolved = resolveParseConfig(config.parseConfig);
      const applied = resolved.ok ? resolved.config.applied : config.parseConfig;
      return { parseConfig: (applied ?? {}) as unknown as JsonObject };
    },
    async execute(input, context) {
      const results: { fileId: string; output: ParseRunOutput }[] = [];
      let credits = 0;
      let pages = 0;
      for (const file of input.files) {
        let bytes: Uint8Array;
        try {
          bytes = await context.files.read(file.id, { signal: context.signal });
        } catch (error) {
          context.signal.throwIfAborted();
          // Storage trouble is transient from the step's point of view: let the engine retry.
          throw new StepError(`Reading file ${file.id} (${file.name}) failed`, {
            retryable: true,
            reason: 'INTERNAL_ERROR',
            cause: error,
          });
        }
        const result = await parseDocument(bytes, {
          fileName: file.name,
          signal: context.signal,
          ...(input.config.parseConfig ? { config: input.config.parseConfig } : {}),
          ...(options.limits ? { limits: options.limits } : {}),
          ...(options.pdfWorkers ? { pdfWorkers: options.pdfWorkers } : {}),
          ...(options.onProgress
            ? { onProgress: reportTo(options.onProgress, context, file) }
            : {}),
        });
        if (!result.ok) {
          const prefix = input.files.length > 1 ? `${file.name}: ` : '';
          return {
            failure: { reason: result.failureReason, message: `${prefix}${result.failureMessage}` },
            usage: { credits, pages },
          };
        }
        credits += result.usage.credits;
        pages += result.usage.pages;
        results.push({ fileId: file.id, output: result.output });
      }
      const usage = { credits, pages };
      const [first] = results;
      if (results.length === 1 && first) return { output: asJson(first.output), usage };
      return {
        output: asJson({
          chunks: results.flatMap((result) => result.output.chunks),
          metadata: first?.output.metadata ?? null,
          files: results,
        }),
        usage,
      };
    },
  });
}
