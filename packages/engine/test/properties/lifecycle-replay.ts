import type { RunEventRecord, StorageAdapter } from '@docflow/storage';
import { type AnyStateMachine, transition } from 'xstate';
import { runLifecycleMachine, stepRunLifecycleMachine } from '../../src/run/lifecycle.ts';

/** The state `machine` reaches from `from` on `event`, or undefined when it does not move. */
function step(machine: AnyStateMachine, from: string, event: string): string | undefined {
  const snapshot = machine.resolveState({ value: from, context: undefined });
  const [next] = transition(machine, snapshot, { type: event });
  const value = String(next.value);
  return value === from ? undefined : value;
}

/**
 * Replays a run's event log through the xstate lifecycles and returns every event that the
 * machines do not allow or whose recorded status differs from the machine's. `run.<event>` and
 * `step.<event>` carry the status they led to; `run.created` / `step.created` start the
 * machines; other events (`run.metadata_updated`) do not move a status.
 */
export function lifecycleViolations(events: readonly RunEventRecord[]): string[] {
  const problems: string[] = [];
  let run: string | undefined;
  const steps = new Map<string, string>();
  for (const e of events) {
    const [scope, name] = e.type.split('.') as [string, string];
    const status = e.data.status as string | undefined;
    const where = `#${e.seq} ${e.type}`;
    if (scope === 'run') {
      if (name === 'created') {
        if (run !== undefined) problems.push(`${where}: run created twice`);
        run = status ?? 'PENDING';
        if (run !== 'PENDING') problems.push(`${where}: created as ${run}`);
        continue;
      }
      if (status === undefined) continue;
      if (run === undefined) {
        problems.push(`${where}: before run.created`);
        continue;
      }
      const next = step(runLifecycleMachine, run, name.toUpperCase());
      if (next === undefined) problems.push(`${where}: ${run} --${name}--> is not a transition`);
      else if (next !== status) problems.push(`${where}: machine says ${next}, log says ${status}`);
      run = status;
      continue;
    }
    if (scope !== 'step') continue;
    const id = e.data.stepRunId as string;
    if (name === 'created') {
      if (steps.has(id)) problems.push(`${where}: step run ${id} created twice`);
      steps.set(id, 'PENDING');
      continue;
    }
    const from = steps.get(id);
    if (from === undefined) {
      problems.push(`${where}: step run ${id} moved before step.created`);
      continue;
    }
    const next = step(stepRunLifecycleMachine, from, name.toUpperCase());
    if (next === undefined) problems.push(`${where}: ${from} --${name}--> is not a transition`);
    else if (next !== status) problems.push(`${where}: machine says ${next}, log says ${status}`);
    steps.set(id, status ?? from);
  }
  return problems;
}

/**
 * Replays the run's whole event log; also checks that the replayed statuses equal the stored
 * snapshot's (the log and the snapshot are committed together).
 */
export async function replayProblems(storage: StorageAdapter, runId: string): Promise<string[]> {
  const events: RunEventRecord[] = [];
  for (;;) {
    const last = events.at(-1);
    const page = await storage.listRunEvents(runId, {
      ...(last ? { afterSeq: last.seq } : {}),
      limit: 500,
    });
    events.push(...page);
    if (page.length < 500) break;
  }
  const problems = lifecycleViolations(events);
  const record = await storage.getRun(runId);
  const snapshot = record?.snapshot as
    | { status: string; stepRuns: { id: string; status: string }[] }
    | undefined;
  if (!snapshot) return [...problems, `run ${runId} is not stored`];
  const replayed = finalStatuses(events);
  if (replayed.run !== snapshot.status) {
    problems.push(`run status: log ends at ${replayed.run}, snapshot says ${snapshot.status}`);
  }
  for (const sr of snapshot.stepRuns) {
    const fromLog = replayed.steps.get(sr.id);
    if (fromLog !== sr.status) {
      problems.push(`step run ${sr.id}: log ends at ${fromLog}, snapshot says ${sr.status}`);
    }
  }
  if (replayed.steps.size !== snapshot.stepRuns.length) {
    problems.push(`log has ${replayed.steps.size} step runs, snapshot ${snapshot.stepRuns.length}`);
  }
  return problems;
}

function finalStatuses(events: readonly RunEventRecord[]): {
  run: string | undefined;
  steps: Map<string, string>;
} {
  let run: string | undefined;
  const steps = new Map<string, string>();
  for (const e of events) {
    const status = e.data.status as string | undefined;
    if (e.type.startsWith('run.')) {
      if (status !== undefined) run = status;
    } else if (e.type.startsWith('step.')) {
      const id = e.data.stepRunId as string;
      steps.set(id, status ?? steps.get(id) ?? 'PENDING');
    }
  }
  return { run, steps };
}
