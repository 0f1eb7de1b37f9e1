/**
 * An empty `runRevisions` or `documentRevisions` of a `CommitResult`. Its keys are ids, new with
 * almost every commit: on an ordinary object each new key made V8 a new hidden class, and adding
 * it to the empty object's list of transitions grew with the number of runs (about 3 µs per step
 * commit on PostgreSQL's path). An object without a prototype keeps its keys in a dictionary
 * from the start. It reads as any record does (`[id]`, `in`, `Object.keys`, JSON, equality in
 * tests), without the methods of `Object.prototype`.
 */
export function revisionsByKey(): Record<string, number> {
  return Object.create(null) as Record<string, number>;
}
