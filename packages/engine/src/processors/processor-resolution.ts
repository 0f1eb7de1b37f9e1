import type { JsonObject } from '@docflow/storage';
import type { ProcessorResolution, ProcessorResolver } from '../definition/check-step-configs.ts';
import { asArray, asRecord, asString } from '../definition/step-view.ts';
import type { ProcessorKind } from '../definition/workflow-definition.ts';
import { EngineErrorCode, isEngineError } from '../errors.ts';
import { withJsonSchema } from './legacy-fields-schema.ts';
import { kindOfProcessorType } from './processor-kinds.ts';
import type { ProcessorUsed, ResolvedProcessor } from './processor-resource.ts';
import { classificationIdsOf } from './validate-processor-config.ts';

/** What resolution needs of each processor service: references resolved to one version. */
export interface ProcessorLookup {
  resolve(
    reference: { readonly id: string; readonly version?: string },
    path?: string,
  ): Promise<ResolvedProcessor>;
}

/** The three processor services, by kind. */
export type ProcessorServices = Readonly<Record<ProcessorKind, ProcessorLookup>>;

/** A saved processor reference as steps and runs carry it. */
export interface ProcessorRef {
  readonly id: string;
  readonly version?: string;
}

/** Resolution of saved processor references, for executors and workflow validation. */
export interface ProcessorResolutionService {
  /**
   * The config of a saved processor at a version, for executors of steps that reference one
   * (`extractor: { id, version }`). `kind` is `extractor`/`classifier`/`splitter` or the
   * processor type `EXTRACT`/`CLASSIFY`/`SPLITTER` (as `@docflow/steps`' ResolveProcessor passes
   * it). `"latest"` (the default) is the newest published version, or the draft when none is
   * published. An extractor saved with the deprecated `fields` gets the equivalent JSON `schema`
   * added. Rejects with EngineError NOT_FOUND / VALIDATION_FAILED for an unknown processor
   * or version.
   */
  resolveProcessor(kind: string, reference: ProcessorRef): Promise<JsonObject>;
  /**
   * Like `resolveProcessor`, with the processor and the version that ran, as runs embed them
   * (`extractor`, `extractorVersion`, …).
   */
  resolveForRun(
    kind: string,
    reference: ProcessorRef,
  ): Promise<{ readonly config: JsonObject; readonly used: ProcessorUsed }>;
  /** Like `resolveProcessor`, with the processor and version summaries runs embed. */
  resolve(kind: ProcessorKind, reference: ProcessorRef, path?: string): Promise<ResolvedProcessor>;
  /**
   * A synchronous ProcessorResolver for `validateWorkflowDefinition({ processors })`, with every
   * processor reference of `definition` looked up beforehand (existence, version, classification
   * ids of classifiers and splitters).
   */
  resolverFor(definition: unknown): Promise<ProcessorResolver>;
}

interface Wanted {
  readonly kind: ProcessorKind;
  readonly id: string;
  readonly version: string;
}

const keyOf = (kind: string, id: string, version: string) => `${kind}\u0000${id}\u0000${version}`;

/** The saved processor references of a definition's steps (unchecked input: skips what is malformed). */
export function processorReferencesOf(definition: unknown): Wanted[] {
  const out: Wanted[] = [];
  const add = (kind: ProcessorKind, ref: unknown) => {
    const record = asRecord(ref);
    const id = asString(record?.id);
    const version = asString(record?.version);
    if (id !== undefined && version !== undefined) out.push({ kind, id, version });
  };
  for (const raw of asArray(asRecord(definition)?.steps)) {
    const step = asRecord(raw);
    const config = asRecord(step?.config);
    switch (step?.type) {
      case 'EXTRACT':
        add('extractor', config?.extractor);
        break;
      case 'CLASSIFY':
        add('classifier', config?.classifier);
        break;
      case 'SPLIT':
        add('splitter', config?.splitter);
        break;
      case 'CONDITIONAL_EXTRACT':
        for (const rule of asArray(config?.rules)) add('extractor', asRecord(rule)?.extractor);
        break;
      default:
        break;
    }
  }
  return out;
}

function toKind(kind: string): ProcessorKind | undefined {
  if (kind === 'extractor' || kind === 'classifier' || kind === 'splitter') return kind;
  return kindOfProcessorType(kind);
}

/**
 * Resolves saved processor references through the three processor services.
 *
 * @example
 * const processors = createProcessorResolution({ extractor, classifier, splitter });
 * const issues = validateWorkflowDefinition(def, { processors: await processors.resolverFor(def) });
 * const config = await processors.resolveProcessor('EXTRACT', { id: 'ex_…', version: '1.0' });
 */
export function createProcessorResolution(services: ProcessorServices): ProcessorResolutionService {
  const resolve = (kind: ProcessorKind, reference: ProcessorRef, path?: string) =>
    services[kind].resolve(reference, path);

  const resolutionOf = async (wanted: Wanted): Promise<ProcessorResolution> => {
    if (wanted.version === 'latest' && wanted.kind !== 'extractor') return 'not_pinned';
    try {
      const resolved = await resolve(wanted.kind, wanted);
      return wanted.kind === 'extractor'
        ? 'ok'
        : { status: 'ok', classificationIds: classificationIdsOf(wanted.kind, resolved.config) };
    } catch (error) {
      if (
        isEngineError(error, EngineErrorCode.NOT_FOUND) ||
        isEngineError(error, EngineErrorCode.VALIDATION_FAILED)
      ) {
        return 'not_found';
      }
      throw error;
    }
  };

  const resolveForRun = async (kind: string, reference: ProcessorRef) => {
    const k = toKind(kind);
    if (k === undefined) {
      throw new TypeError(
        `unknown processor kind ${JSON.stringify(kind)}: use extractor, classifier or splitter`,
      );
    }
    const resolved = await resolve(k, reference);
    return {
      config: k === 'extractor' ? withJsonSchema(resolved.config) : resolved.config,
      used: { summary: resolved.processor, version: resolved.versionSummary },
    };
  };

  return {
    async resolveProcessor(kind, reference) {
      return (await resolveForRun(kind, reference)).config;
    },

    resolveForRun,

    resolve,

    async resolverFor(definition) {
      const answers = new Map<string, ProcessorResolution>();
      for (const wanted of processorReferencesOf(definition)) {
        const key = keyOf(wanted.kind, wanted.id, wanted.version);
        if (!answers.has(key)) answers.set(key, await resolutionOf(wanted));
      }
      return {
        // Every reference of the definition was looked up above; one that was not (a shape the
        // walk does not know) is left to the run, which fails it with INVALID_PROCESSOR.
        resolve: (kind, id, version) => answers.get(keyOf(kind, id, version)) ?? 'ok',
      };
    },
  };
}
