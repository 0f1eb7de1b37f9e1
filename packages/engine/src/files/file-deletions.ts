/**
 * Counts the deletions of files an engine has committed, so that what was worked out from which
 * files exist (a run's `files`) can be kept until the next one. It sees this engine's deletions
 * only: on storage that several processes share, another process deletes files unseen, and
 * callers must look at the files themselves.
 */
export class FileDeletions {
  #count = 0;

  /** How many deletions have been committed so far. */
  get count(): number {
    return this.#count;
  }

  /** A deletion was committed (called after its commit, so a look that saw it counts after). */
  committed(): void {
    this.#count++;
  }
}
