import type { StepDefinition, WorkflowRun } from '@docflow/engine';
import type { Execution } from './deterministic-steps.ts';
import { outputOf } from './projection.ts';

/** Step name → the names of the steps that can reach it (its ancestors). */
export function ancestorsOf(steps: readonly StepDefinition[]): Map<string, Set<string>> {
  const parents = new Map<string, string[]>();
  for (const s of steps) {
    for (const n of (s as unknown as { next?: { step: string }[] }).next ?? []) {
      parents.set(n.step, [...(parents.get(n.step) ?? []), s.name]);
    }
  }
  const memo = new Map<string, Set<string>>();
  const visit = (name: string): Set<string> => {
    const known = memo.get(name);
    if (known) return known;
    const out = new Set<string>();
    memo.set(name, out);
    for (const p of parents.get(name) ?? []) {
      out.add(p);
      for (const a of visit(p)) out.add(a);
    }
    return out;
  };
  for (const s of steps) visit(s.name);
  return memo;
}

/**
 * Order-independent facts of the path model (docs/architecture.md, a run's life) that a finished
 * run must satisfy, whatever the completion order:
 * - an executor only sees outputs of steps upstream of it, and always TRIGGER's and PARSE's;
 * - each COLLECT that paths reached was released exactly once, as one step run that collected
 *   every arrival (the other arrivals point at it).
 */
export function pathProblems(
  steps: readonly StepDefinition[],
  run: WorkflowRun,
  executions: readonly Execution[],
): string[] {
  const problems: string[] = [];
  const ancestors = ancestorsOf(steps);
  for (const e of executions) {
    const upstream = ancestors.get(e.stepName) ?? new Set<string>();
    for (const name of e.inputSteps) {
      if (!upstream.has(name)) problems.push(`${e.stepName} saw ${name}, which is not upstream`);
    }
    for (const name of e.stepName === 'parse' ? ['trigger'] : ['trigger', 'parse']) {
      if (!e.inputSteps.includes(name)) problems.push(`${e.stepName} did not see ${name}`);
    }
  }
  const collects = new Map<string, WorkflowRun['stepRuns'][number][]>();
  for (const sr of run.stepRuns) {
    if (sr.stepType === 'COLLECT')
      collects.set(sr.step.name, [...(collects.get(sr.step.name) ?? []), sr]);
  }
  for (const [name, arrivals] of collects) {
    const hosts = arrivals.filter((sr) => {
      const output = outputOf(sr) as { collected?: unknown } | null;
      return Array.isArray(output?.collected);
    });
    if (hosts.length !== 1) {
      problems.push(`${name}: ${hosts.length} released step runs for ${arrivals.length} arrivals`);
      continue;
    }
    const collected = (outputOf(hosts[0] as (typeof arrivals)[number]) as { collected: string[] })
      .collected;
    if (collected.length !== arrivals.length) {
      problems.push(`${name}: released with ${collected.length} of ${arrivals.length} arrivals`);
    }
    const host = hosts[0]?.id;
    for (const sr of arrivals) {
      if (sr.id === host) continue;
      const into = (outputOf(sr) as { collectedInto?: string } | null)?.collectedInto;
      if (into !== host) problems.push(`${name}: arrival ${sr.id} joined ${into}, not ${host}`);
    }
  }
  return problems;
}
