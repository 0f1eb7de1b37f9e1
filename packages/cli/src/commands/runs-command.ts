/** `docflow runs list|get|cancel|review`: the runs stored in the database. */
import { resolve } from 'node:path';
import {
  isEngineError,
  type ReviewOutput,
  RUN_STATUSES,
  type RunStatus,
  type WorkflowRun,
} from '@docflow/engine';
import type { CliContext } from '../cli-context.ts';
import { CliError, ExitCode } from '../cli-error.ts';
import { engineStorage, type StorageFlags } from '../engine-storage.ts';
import { loadJsonFile } from '../load-json-file.ts';
import { openEngine } from '../open-engine.ts';
import { runDetail } from '../output/run-summary.ts';
import { styleStatus } from '../output/style.ts';
import { formatTable } from '../output/table.ts';
import type { ModelProviderSettings } from '../provider-options.ts';

/** Options every `runs` subcommand takes. */
export interface RunsOptions extends StorageFlags {
  readonly json?: boolean;
  /** The model provider of the steps this command's engine resumes (offline when absent). */
  readonly provider?: ModelProviderSettings | undefined;
}

async function withEngine<T>(
  context: CliContext,
  options: RunsOptions,
  work: (engine: Awaited<ReturnType<typeof openEngine>>) => Promise<T>,
): Promise<T> {
  const engine = await openEngine(engineStorage(context, options), {
    provider: options.provider,
  });
  try {
    return await work(engine);
  } catch (error) {
    // A wrong id or a run in the wrong state is the user's to fix, not a crash.
    if (isEngineError(error, 'NOT_FOUND') || isEngineError(error, 'INVALID_STATE')) {
      throw new CliError(error.message);
    }
    if (isEngineError(error, 'VALIDATION_FAILED')) {
      const issues = (error.details.issues ?? []).map((i) => `${i.path}: ${i.message}`);
      throw new CliError(`${error.message}\n  ${issues.join('\n  ')}`, ExitCode.USAGE);
    }
    throw error;
  } finally {
    await engine.stop();
  }
}

function printRun(context: CliContext, run: WorkflowRun, json: boolean | undefined): void {
  if (json) {
    context.print(JSON.stringify(run, null, 2));
    return;
  }
  const { out } = context;
  context.print(`${out.bold(run.id)}  ${styleStatus(out, run.status)}`);
  context.print(
    `workflow  ${run.workflow.name} (${run.workflow.id}) v${run.workflowVersion.version}`,
  );
  context.print(`files     ${run.files.map((f) => f.name).join(', ')}`);
  const detail = runDetail(run);
  if (detail) context.print(`detail    ${detail}`);
  if (run.reviewedByUser) context.print(`reviewed  by ${run.reviewedByUser} at ${run.reviewedAt}`);
  context.print('');
  context.print(
    formatTable(
      ['STEP', 'TYPE', 'STATUS', 'FILE'].map((h) => out.bold(h)),
      run.stepRuns.map((s) => [
        s.step.name,
        s.stepType,
        styleStatus(out, s.status),
        s.files.map((f) => f.name).join(', '),
      ]),
    ),
  );
}

/** `runs list`: the most recent runs, newest first. */
export async function runsListCommand(
  context: CliContext,
  options: RunsOptions & { status?: string; workflow?: string; limit?: number },
): Promise<number> {
  if (
    options.status !== undefined &&
    !(RUN_STATUSES as readonly string[]).includes(options.status)
  ) {
    throw new CliError(
      `--status must be one of ${RUN_STATUSES.join(', ')}; got ${options.status}`,
      ExitCode.USAGE,
    );
  }
  return withEngine(context, options, async (engine) => {
    const list = await engine.workflowRuns.list({
      maxPageSize: options.limit ?? 20,
      ...(options.status ? { status: options.status as RunStatus } : {}),
      ...(options.workflow ? { workflowId: options.workflow } : {}),
    });
    if (options.json) {
      context.print(JSON.stringify(list, null, 2));
      return ExitCode.OK;
    }
    const { out } = context;
    context.print(
      formatTable(
        ['RUN', 'WORKFLOW', 'STATUS', 'FILES', 'CREATED'].map((h) => out.bold(h)),
        list.data.map((run) => [
          run.id,
          run.workflow.name,
          styleStatus(out, run.status),
          run.files.map((f) => f.name).join(', '),
          run.createdAt,
        ]),
      ),
    );
    if (list.nextPageToken) context.print(out.dim('(more runs: raise --limit)'));
    return ExitCode.OK;
  });
}

/** `runs get <id>`: one run with its step runs. */
export async function runsGetCommand(
  context: CliContext,
  id: string,
  options: RunsOptions,
): Promise<number> {
  return withEngine(context, options, async (engine) => {
    printRun(context, await engine.workflowRuns.get(id), options.json);
    return ExitCode.OK;
  });
}

/** `runs cancel <id>`: cancels and waits until the run's in-flight steps have stopped. */
export async function runsCancelCommand(
  context: CliContext,
  id: string,
  options: RunsOptions,
): Promise<number> {
  return withEngine(context, options, async (engine) => {
    await engine.workflowRuns.cancel(id);
    printRun(context, await engine.workflowRuns.waitFor(id, { timeoutMs: 60_000 }), options.json);
    return ExitCode.OK;
  });
}

/** Options of `runs review`. */
export interface ReviewOptions extends RunsOptions {
  readonly approve?: boolean;
  readonly reject?: boolean;
  readonly reviewer: string;
  readonly note?: string;
  readonly outputs?: string;
  readonly timeout?: number;
}

/** `runs review <id>`: approves or rejects a waiting run, then waits until it settles. */
export async function runsReviewCommand(
  context: CliContext,
  id: string,
  options: ReviewOptions,
): Promise<number> {
  if (options.approve === options.reject) {
    throw new CliError('give exactly one of --approve and --reject', ExitCode.USAGE);
  }
  let outputs: ReviewOutput[] | undefined;
  if (options.outputs !== undefined) {
    const data = await loadJsonFile(resolve(context.cwd, options.outputs), 'outputs file');
    if (!Array.isArray(data)) {
      throw new CliError(
        `outputs file ${options.outputs} must hold an array of { stepName | stepRunId, output }`,
      );
    }
    outputs = data as ReviewOutput[];
  }
  return withEngine(context, options, async (engine) => {
    await engine.workflowRuns.review(id, {
      decision: options.approve ? 'approve' : 'reject',
      reviewer: options.reviewer,
      ...(options.note === undefined ? {} : { note: options.note }),
      ...(outputs === undefined ? {} : { outputs }),
    });
    // An approved run carries on from where it waited; see it through before the engine stops.
    const run = await engine.workflowRuns.waitFor(id, { timeoutMs: options.timeout ?? 600_000 });
    printRun(context, run, options.json);
    return run.status === 'FAILED' ? ExitCode.FAILURE : ExitCode.OK;
  });
}
