import type { ValidationIssue } from '../errors.ts';
import { closestName } from './closest-name.ts';
import { DefinitionIssueCode as Code } from './definition-issue-code.ts';
import { aStep } from './describe-step-type.ts';
import type { StepView } from './step-view.ts';

/** Names that formulas resolve before step names, so a step cannot take them. */
export const RESERVED_STEP_NAMES: ReadonlySet<string> = new Set(['metadata']);

/** The structure of a definition's step graph, with the issues found while building it. */
export interface GraphAnalysis {
  /** Issues in check order: names, TRIGGER, `next` targets, cycles, reachability. */
  readonly issues: ValidationIssue[];
  /** The index of the (first) step of each name. */
  readonly indexByName: ReadonlyMap<string, number>;
  /** Distinct successor indices of each step, in `next` order (known targets only). */
  readonly successors: readonly (readonly number[])[];
  /** The index of the TRIGGER when there is exactly one. */
  readonly triggerIndex: number | undefined;
  /** True when the steps form no cycle. */
  readonly acyclic: boolean;
  /** Per step, whether the TRIGGER reaches it; undefined without a single TRIGGER. */
  readonly reachable: readonly boolean[] | undefined;
}

function unknownStepMessage(name: string, names: Iterable<string>): string {
  const hint = closestName(name, names);
  return `no step is named "${name}"${hint === undefined ? '' : `; did you mean "${hint}"?`}`;
}

function nextKey(entry: StepView['next'][number]): string {
  return JSON.stringify([entry.step, entry.classificationId, entry.conditionId, entry.result]);
}

/**
 * Checks the step graph: unique names, one TRIGGER routing to one PARSE, known `next`
 * targets, no duplicate entries, no cycles, every step reachable from the TRIGGER.
 */
export function analyzeGraph(steps: readonly StepView[]): GraphAnalysis {
  const issues: ValidationIssue[] = [];
  const indexByName = new Map<string, number>();
  const duplicate = new Set<number>();

  for (const step of steps) {
    if (step.name === undefined) continue;
    const first = indexByName.get(step.name);
    if (first === undefined) {
      indexByName.set(step.name, step.index);
    } else {
      duplicate.add(step.index);
      issues.push({
        code: Code.DUPLICATE_STEP_NAME,
        path: `steps[${step.index}].name`,
        message: `"${step.name}" is already the name of steps[${first}]; step names must be unique`,
      });
    }
    if (RESERVED_STEP_NAMES.has(step.name)) {
      issues.push({
        code: Code.RESERVED_STEP_NAME,
        path: `steps[${step.index}].name`,
        message: `"${step.name}" is reserved: formulas read the run's metadata under it`,
      });
    }
  }

  const triggers = steps.filter((s) => s.type === 'TRIGGER');
  if (triggers.length === 0) {
    issues.push({
      code: Code.TRIGGER_COUNT,
      path: 'steps',
      message: 'must have exactly one TRIGGER step, found none',
    });
  }
  for (const extra of triggers.slice(1)) {
    issues.push({
      code: Code.TRIGGER_COUNT,
      path: `steps[${extra.index}].type`,
      message: `a definition has exactly one TRIGGER step; steps[${triggers[0]?.index}] is one already`,
    });
  }
  const trigger = triggers.length === 1 ? triggers[0] : undefined;
  if (trigger) {
    const [target, ...rest] = trigger.next;
    if (target === undefined || rest.length > 0) {
      issues.push({
        code: Code.TRIGGER_TARGET,
        path: `steps[${trigger.index}].next`,
        message: `a TRIGGER routes to exactly one PARSE step, found ${trigger.next.length} next entries`,
      });
    } else if (target.step !== undefined) {
      const targetIndex = indexByName.get(target.step);
      const targetType = targetIndex === undefined ? undefined : steps[targetIndex]?.type;
      if (targetType !== undefined && targetType !== 'PARSE') {
        issues.push({
          code: Code.TRIGGER_TARGET,
          path: `steps[${trigger.index}].next[0].step`,
          message: `a TRIGGER routes to a PARSE step, "${target.step}" is ${aStep(targetType)}`,
        });
      }
    }
  }

  const successors: number[][] = steps.map(() => []);
  for (const step of steps) {
    const seen = new Set<string>();
    const targets = successors[step.index] ?? [];
    for (const entry of step.next) {
      if (entry.step === undefined) continue;
      const key = nextKey(entry);
      if (seen.has(key)) {
        issues.push({
          code: Code.DUPLICATE_NEXT_ENTRY,
          path: `steps[${step.index}].next[${entry.index}]`,
          message: 'repeats an earlier entry of the same next list',
        });
        continue;
      }
      seen.add(key);
      const target = indexByName.get(entry.step);
      if (target === undefined) {
        issues.push({
          code: Code.UNKNOWN_STEP,
          path: `steps[${step.index}].next[${entry.index}].step`,
          message: unknownStepMessage(entry.step, indexByName.keys()),
        });
      } else if (!targets.includes(target)) {
        targets.push(target);
      }
    }
  }

  const cycles = findCycles(successors);
  for (const cycle of cycles) {
    const last = cycle[cycle.length - 1] ?? 0;
    const first = cycle[0] ?? 0;
    const lastStep = steps[last];
    const closing = lastStep?.next.find((e) => e.step === steps[first]?.name);
    const names = [...cycle, first].map((i) => `"${steps[i]?.name}"`).join(' → ');
    issues.push({
      code: Code.CYCLE,
      path: `steps[${last}].next[${closing?.index ?? 0}].step`,
      message: `closes a cycle: ${names}; a workflow is a directed acyclic graph`,
    });
  }

  let reachable: boolean[] | undefined;
  if (trigger) {
    reachable = steps.map(() => false);
    const queue = [trigger.index];
    reachable[trigger.index] = true;
    for (let head = 0; head < queue.length; head++) {
      for (const next of successors[queue[head] ?? 0] ?? []) {
        if (!reachable[next]) {
          reachable[next] = true;
          queue.push(next);
        }
      }
    }
    for (const step of steps) {
      if (reachable[step.index] || step.name === undefined || duplicate.has(step.index)) continue;
      issues.push({
        code: Code.UNREACHABLE_STEP,
        path: `steps[${step.index}]`,
        message: `"${step.name}" cannot be reached from the TRIGGER`,
      });
    }
  }

  return {
    issues,
    indexByName,
    successors,
    triggerIndex: trigger?.index,
    acyclic: cycles.length === 0,
    reachable,
  };
}

/**
 * One cycle per strongly connected component that has one (Tarjan), each as the step indices
 * along a shortest cycle through the component's first step.
 */
export function findCycles(successors: readonly (readonly number[])[]): number[][] {
  const n = successors.length;
  const order = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const onStack = new Array<boolean>(n).fill(false);
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;

  // Iterative Tarjan: definitions are small, but input is untrusted and recursion depth is not.
  for (let root = 0; root < n; root++) {
    if (order[root] !== -1) continue;
    const frames: [node: number, edge: number][] = [[root, 0]];
    order[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = true;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      if (!frame) break;
      const [node, edge] = frame;
      const targets = successors[node] ?? [];
      if (edge < targets.length) {
        frame[1] = edge + 1;
        const next = targets[edge] ?? 0;
        if (order[next] === -1) {
          order[next] = low[next] = counter++;
          stack.push(next);
          onStack[next] = true;
          frames.push([next, 0]);
        } else if (onStack[next]) {
          low[node] = Math.min(low[node] ?? 0, order[next] ?? 0);
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low[parent[0]] = Math.min(low[parent[0]] ?? 0, low[node] ?? 0);
      if (low[node] === order[node]) {
        const component: number[] = [];
        let member: number | undefined;
        do {
          member = stack.pop();
          if (member === undefined) break;
          onStack[member] = false;
          component.push(member);
        } while (member !== node);
        const selfLoop = component.length === 1 && (successors[node] ?? []).includes(node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }

  return components
    .map((component) => shortestCycle(successors, component))
    .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
}

function shortestCycle(successors: readonly (readonly number[])[], component: number[]): number[] {
  const members = new Set(component);
  const start = Math.min(...component);
  const parent = new Map<number, number>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] ?? start;
    for (const next of successors[node] ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const cycle = [node];
        for (let at = node; at !== start; ) {
          at = parent.get(at) ?? start;
          cycle.push(at);
        }
        return cycle.reverse();
      }
      if (!parent.has(next)) {
        parent.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}
