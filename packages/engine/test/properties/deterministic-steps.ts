import {
  defineStep,
  type FileSummary,
  type StepContext,
  StepError,
  type StepExecutor,
  type StepInput,
  type StepOutcome,
  type StepType,
} from '@docflow/engine';
import type { JsonObject, JsonValue } from '@docflow/storage';
import { canonicalJson, hashOf } from './canonical.ts';

/** One execution as the executors report it. */
export interface Execution {
  readonly stepName: string;
  readonly stepType: StepType;
  readonly idempotencyKey: string;
  readonly attempt: number;
  /** The step names whose outputs the path brought (`input.outputs`). */
  readonly inputSteps: readonly string[];
}

/** Options of {@link deterministicSteps}. */
export interface DeterministicStepsOptions {
  /**
   * Called when an execution starts, before any work; may wait (a random delay, a gate that
   * blocks until the signal aborts). Rejecting makes the execution throw.
   */
  readonly before?: (execution: Execution, signal: AbortSignal) => Promise<void> | void;
  /**
   * When true, about one execution in four (chosen by its input) throws a retryable StepError on
   * its first attempt, so that retries interleave with other work.
   */
  readonly flaky?: boolean;
}

/** Executor-backed types the deterministic executors cover. */
export const DETERMINISTIC_TYPES = [
  'PARSE',
  'EXTRACT',
  'CLASSIFY',
  'SPLIT',
  'MERGE_EXTRACT',
] as const satisfies readonly StepType[];

interface ClassRef {
  readonly id: string;
  readonly type?: string;
}

/**
 * The identity of an execution's input: step name, file names, path outputs and metadata, free
 * of generated ids and arrival order. Every output below is a function of this alone.
 */
function inputHash(input: StepInput): number {
  return hashOf(
    canonicalJson({
      step: input.stepName,
      files: input.files.map((f) => f.name),
      outputs: input.outputs,
      metadata: input.metadata,
    }),
  );
}

function classesOf(config: JsonObject, key: 'classifierConfig' | 'splitterConfig'): ClassRef[] {
  const inner = config[key] as JsonObject | undefined;
  const list = (inner?.classifications ?? inner?.splitClassifications ?? []) as unknown;
  return Array.isArray(list) ? (list as ClassRef[]) : [];
}

async function outcomeOf(input: StepInput, ctx: StepContext): Promise<StepOutcome> {
  const h = inputHash(input);
  const names = input.files.map((f) => f.name).sort();
  switch (input.stepType) {
    case 'PARSE':
      return { output: { chunks: names.map((n) => ({ text: `parsed ${n}` })), h } };
    case 'EXTRACT':
      return {
        output: { value: { score: h % 100, by: input.stepName, files: names }, metadata: {} },
        usage: { credits: 1 },
      };
    case 'MERGE_EXTRACT':
      return {
        output: { value: { score: (h >>> 8) % 100, merged: input.stepName }, metadata: {} },
      };
    case 'CLASSIFY': {
      const classes = classesOf(input.config, 'classifierConfig');
      const pick = classes[h % Math.max(1, classes.length)];
      const output: JsonValue = pick
        ? { id: pick.id, type: pick.type ?? pick.id, confidence: 0.9 }
        : null;
      return { output, route: pick?.id ?? null };
    }
    case 'SPLIT': {
      const classes = classesOf(input.config, 'splitterConfig');
      // A joined path lists its files in arrival order; split the first by name, not by position.
      const parent = [...input.files].sort((a, b) => (a.name < b.name ? -1 : 1))[0] as FileSummary;
      const count = 2 + (h % 2);
      const forks: { file: FileSummary; route: string }[] = [];
      for (let i = 0; i < count; i++) {
        const cls = classes[(h >>> (4 + 3 * i)) % Math.max(1, classes.length)] ?? { id: 'none' };
        const name = `${input.stepName}-${hashOf(parent.name) % 1000}-${i}.txt`;
        const file = await ctx.files.create(
          {
            name,
            data: new TextEncoder().encode(`${name} of ${parent.name}`),
            parentFileId: parent.id,
            metadata: {
              parentSplit: {
                id: `split-${i}`,
                type: cls.type ?? cls.id,
                identifier: `#${i}`,
                startPage: i + 1,
                endPage: i + 1,
              },
            },
          },
          { signal: ctx.signal },
        );
        forks.push({ file, route: cls.id });
      }
      return {
        output: { splits: forks.map((f) => ({ name: f.file.name, classificationId: f.route })) },
        forks,
      };
    }
    default:
      return { failure: { reason: 'INTERNAL_ERROR', message: `no fake for ${input.stepType}` } };
  }
}

/**
 * Executors for {@link DETERMINISTIC_TYPES} whose outputs depend only on their input (see
 * `inputHash`): CLASSIFY picks one of its classifications, SPLIT makes two or three child files
 * routed to its classifications, EXTRACT and MERGE_EXTRACT return a `score` in 0..99.
 */
export function deterministicSteps(options: DeterministicStepsOptions = {}): StepExecutor[] {
  return DETERMINISTIC_TYPES.map((type) =>
    defineStep({
      type,
      async execute(input, ctx) {
        await options.before?.(
          {
            stepName: input.stepName,
            stepType: type,
            idempotencyKey: ctx.idempotencyKey,
            attempt: ctx.attempt,
            inputSteps: Object.keys(input.outputs),
          },
          ctx.signal,
        );
        ctx.signal.throwIfAborted();
        if (options.flaky && ctx.attempt === 1 && inputHash(input) % 4 === 1) {
          throw new StepError('flaky on the first attempt', { retryable: true });
        }
        return outcomeOf(input, ctx);
      },
    }),
  );
}

/** Waits `ms` (0: one macrotask), rejecting with the signal's reason when it aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A `before` hook that waits a random time drawn from `random`: often nothing, sometimes a few
 * macrotasks, sometimes a few milliseconds, so that completions interleave differently per seed.
 */
export function randomDelays(
  random: () => number,
): (execution: Execution, signal: AbortSignal) => Promise<void> {
  return async (_execution, signal) => {
    const r = random();
    if (r < 0.25) return;
    if (r < 0.75) {
      const hops = 1 + Math.floor(random() * 6);
      for (let i = 0; i < hops; i++) await new Promise((done) => setImmediate(done));
      return;
    }
    await pause(Math.floor(random() * 4), signal);
  };
}
