import type { JsonValue } from '@docflow/storage';
import { createEngine, type Engine, type EngineOptions } from '../create-engine.ts';
import type { StepDefinition } from '../definition/workflow-definition.ts';
import type { WorkflowRun } from '../run/run-resource.ts';
import {
  defineStep,
  type StepContext,
  type StepExecutor,
  type StepInput,
  type StepOutcome,
  type StepType,
} from '../step-executor.ts';
import { createTestClock, type TestClock } from './test-clock.ts';

/** What a fake executor does: a fixed output, a function of the input, or a thrown error. */
export type FakeStepBehaviour = JsonValue | ((input: StepInput, context: StepContext) => unknown);

/**
 * A fake executor for `type`. A function may return a full outcome (`{ output, route }`,
 * `{ failure }`) or a plain value, which becomes the output; CLASSIFY outputs route by their `id`.
 * `calls` records every execution (step name and attempt).
 *
 * @example
 * fakeStep('CLASSIFY', { id: 'invoice', type: 'invoice', confidence: 0.9 })
 */
export function fakeStep(
  type: StepType,
  behaviour: FakeStepBehaviour = { ok: true },
): StepExecutor & {
  readonly calls: { stepName: string; attempt: number; idempotencyKey: string }[];
} {
  const calls: { stepName: string; attempt: number; idempotencyKey: string }[] = [];
  const executor = defineStep({
    type,
    async execute(input, context) {
      calls.push({
        stepName: input.stepName,
        attempt: context.attempt,
        idempotencyKey: context.idempotencyKey,
      });
      const value = (
        typeof behaviour === 'function' ? await behaviour(input, context) : behaviour
      ) as JsonValue | StepOutcome;
      if (
        value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        ('output' in value || 'failure' in value)
      ) {
        return value as StepOutcome;
      }
      const output = (value ?? null) as JsonValue;
      if (type === 'CLASSIFY') {
        const id = (output as { id?: unknown } | null)?.id;
        return { output, route: typeof id === 'string' ? id : null };
      }
      return { output };
    },
  });
  return Object.assign(executor, { calls });
}

/** Options of {@link createTestEngine}. */
export interface TestEngineOptions extends Omit<EngineOptions, 'clock'> {
  readonly clock?: TestClock;
}

/** An engine on memory storage with a test clock, already started. */
export interface TestEngine extends Engine {
  readonly clock: TestClock;
  /** Creates, deploys and runs a workflow on a text file, and waits until the run settles. */
  run(
    steps: readonly StepDefinition[],
    input?: {
      text?: string;
      metadata?: Record<string, JsonValue>;
      secrets?: Record<string, string>;
    },
  ): Promise<WorkflowRun>;
  /**
   * Advances the clock by `ms`, resolving due sleeps (timeouts) and waking the scheduler for due
   * work (retries). Follow with `idle()` or `workflowRuns.waitFor()` to wait for what it started.
   */
  advance(ms: number): Promise<void>;
}

/**
 * Creates and starts an engine for tests: memory storage, a {@link TestClock}, no retry delay
 * surprises (advance the clock to pass them), webhooks off unless asked for.
 */
export async function createTestEngine(options: TestEngineOptions = {}): Promise<TestEngine> {
  const clock = options.clock ?? createTestClock();
  const engine = createEngine({
    webhooks: { enabled: false },
    random: () => 0.5,
    ...options,
    clock,
  });
  await engine.start();
  return Object.assign(engine, {
    clock,
    async run(steps: readonly StepDefinition[], input: Parameters<TestEngine['run']>[1] = {}) {
      const wf = await engine.workflows.create({ name: 'test', steps });
      await engine.workflows.deploy(wf.id);
      const run = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        file: { text: input.text ?? 'test document' },
        ...(input.metadata ? { metadata: input.metadata } : {}),
        ...(input.secrets ? { secrets: input.secrets } : {}),
      });
      return engine.workflowRuns.waitFor(run.id, { timeoutMs: 10_000 });
    },
    async advance(ms: number) {
      await clock.advance(ms);
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    },
  });
}
