/**
 * `docflow run <workflow.json> <files…>`: deploys the workflow, runs it on each file (or on all
 * of them as one package), shows progress and prints a summary table or JSON.
 */
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { type FileResource, isEngineError, type WorkflowRun } from '@docflow/engine';
import type { ParseStepProgress } from '@docflow/steps';
import type { CliContext } from '../cli-context.ts';
import { CliError, ExitCode } from '../cli-error.ts';
import { engineStorage, type StorageFlags } from '../engine-storage.ts';
import { loadDefinition } from '../load-definition.ts';
import { openEngine } from '../open-engine.ts';
import { createRunProgress } from '../output/run-progress.ts';
import { runSummaryTable } from '../output/run-summary.ts';
import type { ModelProviderSettings } from '../provider-options.ts';
import { printIssues } from './validate-command.ts';

/** Options of `docflow run`. */
export interface RunOptions extends StorageFlags {
  readonly json?: boolean;
  readonly package?: boolean;
  readonly priority?: number;
  readonly progress?: boolean;
  readonly timeout?: number;
  /** The model provider of EXTRACT, CLASSIFY and SPLIT (offline when absent). */
  readonly provider?: ModelProviderSettings | undefined;
}

const FAILED: ReadonlySet<string> = new Set(['FAILED', 'REJECTED', 'CANCELLED']);

/** Runs the command; resolves with the exit code (1 when a run failed, was rejected or cancelled). */
export async function runCommand(
  context: CliContext,
  workflowPath: string,
  filePaths: readonly string[],
  options: RunOptions,
): Promise<number> {
  const workflowFile = await loadDefinition(resolve(context.cwd, workflowPath));
  if (options.package && (filePaths.length < 2 || filePaths.length > 50)) {
    throw new CliError(`--package needs 2 to 50 files, got ${filePaths.length}`, ExitCode.USAGE);
  }
  const inputs = await Promise.all(
    filePaths.map(async (path) => {
      try {
        return { name: basename(path), data: await readFile(resolve(context.cwd, path)) };
      } catch (error) {
        throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
      }
    }),
  );
  // The progress display exists once the runs do; PARSE steps may report pages before that.
  let onPages: ((progress: ParseStepProgress) => void) | undefined;
  const engine = await openEngine(engineStorage(context, options), {
    provider: options.provider,
    onParseProgress: (progress) => onPages?.(progress),
  });
  try {
    let workflowId: string;
    try {
      const workflow = await engine.workflows.create({
        name: workflowFile.name,
        steps: workflowFile.steps,
      });
      await engine.workflows.deploy(workflow.id);
      workflowId = workflow.id;
    } catch (error) {
      if (isEngineError(error, 'VALIDATION_FAILED')) {
        printIssues(context, workflowPath, error.details.issues ?? []);
        return ExitCode.FAILURE;
      }
      throw error;
    }
    const files: FileResource[] = [];
    for (const input of inputs) files.push(await engine.files.upload(input));
    const priority = options.priority === undefined ? {} : { priority: options.priority };
    const created: { label: string; run: WorkflowRun }[] = [];
    if (options.package) {
      const run = await engine.workflowRuns.create({
        workflow: { id: workflowId },
        package: { files: files.map((f) => ({ id: f.id })) },
        ...priority,
      });
      created.push({ label: `package of ${files.length} files`, run });
    } else {
      for (const file of files) {
        const run = await engine.workflowRuns.create({
          workflow: { id: workflowId },
          file: { id: file.id },
          ...priority,
        });
        created.push({ label: file.name, run });
      }
    }

    const progress = createRunProgress(
      context,
      new Map(created.map((c) => [c.run.id, c.label])),
      workflowFile.steps.length,
      options.progress !== false && !options.json,
    );
    onPages = (p) => progress.pages(p.runId, p.pagesDone, p.pageCount);
    const unsubscribe = engine.on('workflow_run.step_run.processed', (event) => {
      const payload = event.payload as { workflowRunId?: string; step?: { name?: string } };
      progress.step(String(payload.workflowRunId), String(payload.step?.name ?? ''));
    });
    let finished: { label: string; run: WorkflowRun }[];
    try {
      finished = await Promise.all(
        created.map(async ({ label, run }) => {
          const done = await engine.workflowRuns
            .waitFor(run.id, { timeoutMs: options.timeout ?? 600_000 })
            .catch((error: unknown) => {
              if (!isEngineError(error, 'TIMEOUT')) throw error;
              throw new CliError(
                `run ${run.id} (${label}) did not settle within ${options.timeout ?? 600_000} ms; it is stored and carries on with the next docflow command on this database`,
              );
            });
          progress.done(run.id, done.status);
          return { label, run: done };
        }),
      );
    } finally {
      unsubscribe();
      onPages = undefined;
      progress.stop();
    }

    if (options.json) {
      context.print(
        JSON.stringify(
          finished.map((f) => f.run),
          null,
          2,
        ),
      );
    } else {
      context.print(runSummaryTable(context.out, finished));
    }
    return finished.some((f) => FAILED.has(f.run.status)) ? ExitCode.FAILURE : ExitCode.OK;
  } finally {
    await engine.stop();
  }
}
