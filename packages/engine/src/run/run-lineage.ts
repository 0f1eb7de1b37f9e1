import type { LineageRef, RunState, StepRunState } from './run-state.ts';

/** `base` with every step run of `from` added: one id stays a string, several make an array. */
export function mergedLineage(
  base: Readonly<Record<string, LineageRef>>,
  from: Readonly<Record<string, LineageRef>>,
): Record<string, LineageRef> {
  const into = { ...base };
  for (const [name, ref] of Object.entries(from)) {
    const existing = into[name];
    if (existing === undefined) {
      into[name] = ref;
      continue;
    }
    const all = new Set([
      ...(Array.isArray(existing) ? existing : [existing]),
      ...(Array.isArray(ref) ? ref : [ref]),
    ]);
    into[name] = all.size === 1 ? ([...all][0] ?? existing) : [...all];
  }
  return into;
}

/**
 * Step name → the step run(s) whose outputs `sr`'s path carries: each parent's lineage with the
 * parent itself, merged over the parents in order. A step run keeps only its parents; the whole
 * lineage in every step run made a snapshot grow with the square of a path's length (a
 * 20-step path: 190 entries of about 55 bytes, written again with each commit). Step runs of
 * snapshots written before 2026-11-23 hold their `lineage` itself, which is taken as it is.
 */
export function lineageOf(state: RunState, sr: StepRunState): Record<string, LineageRef> {
  if (sr.lineage !== undefined) return sr.lineage;
  // The common case, a chain of single parents, walked without building an index: back to a step
  // run without parents (TRIGGER) or one of an older snapshot, then forward again.
  const chain: StepRunState[] = [];
  let current = sr;
  for (;;) {
    const parents = current.parents;
    if (parents === undefined || parents.length === 0) break;
    if (parents.length > 1) return joinedLineageOf(state, sr);
    const id = parents[0];
    const parent = state.stepRuns.find((s) => s.id === id);
    if (parent === undefined) break;
    chain.push(parent);
    if (parent.lineage !== undefined) break;
    current = parent;
  }
  const root = chain[chain.length - 1];
  const lineage: Record<string, LineageRef> =
    root?.lineage === undefined ? {} : { ...root.lineage };
  for (let i = chain.length - 1; i >= 0; i--) {
    const parent = chain[i] as StepRunState;
    lineage[parent.stepName] = parent.id;
  }
  return lineage;
}

/** {@link lineageOf} where a COLLECT joined paths somewhere on the way back. */
function joinedLineageOf(state: RunState, sr: StepRunState): Record<string, LineageRef> {
  const byId = new Map<string, StepRunState>();
  for (const s of state.stepRuns) byId.set(s.id, s);
  const memo = new Map<string, Record<string, LineageRef>>();
  const of = (s: StepRunState): Record<string, LineageRef> => {
    if (s.lineage !== undefined) return s.lineage;
    let lineage = memo.get(s.id);
    if (lineage !== undefined) return lineage;
    lineage = {};
    for (const id of s.parents ?? []) {
      const parent = byId.get(id);
      if (parent === undefined) continue;
      const carried = { ...of(parent), [parent.stepName]: parent.id };
      lineage = s.parents?.length === 1 ? carried : mergedLineage(lineage, carried);
    }
    memo.set(s.id, lineage);
    return lineage;
  };
  return of(sr);
}
