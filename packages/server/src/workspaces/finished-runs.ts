import { type Engine, isFinalRunStatus } from '@docflow/engine';

/** Finished runs answered from memory, at most this many per workspace. */
const CAPACITY = 2000;

/**
 * What `GET /workflow_runs/{id}` answered for finished runs (PROCESSED, FAILED, CANCELLED,
 * REJECTED), as JSON text: a finished run does not change, except through the engine calls this
 * module wraps (a run's `update` and `delete`, and a file's `delete`, which runs show), so the
 * text can be served again without reading storage, projecting the run and serializing it.
 * Runs still working are always read afresh. Decision 0009 says what this costs.
 *
 * A read that raced with a change is not kept: every change moves a generation counter, and a
 * read stores its text only if the counter did not move while it read.
 */
export class FinishedRuns {
  readonly #texts = new Map<string, string>();
  #generation = 0;

  /** The JSON of a run: from memory when it is finished and unchanged since. */
  async json(engine: Engine, id: string): Promise<string> {
    const known = this.#texts.get(id);
    if (known !== undefined) return known;
    const generation = this.#generation;
    // The engine keeps the text of an unfinished run until it changes; a finished one is kept here.
    const { status, json: text } = await engine.workflowRuns.getJson(id);
    if (isFinalRunStatus(status) && generation === this.#generation) {
      if (this.#texts.size >= CAPACITY) {
        // Oldest first: a Map iterates in insertion order.
        const oldest = this.#texts.keys().next().value as string;
        this.#texts.delete(oldest);
      }
      this.#texts.set(id, text);
    }
    return text;
  }

  /** Forgets everything (a change that may touch any run). */
  clear(): void {
    this.#generation++;
    this.#texts.clear();
  }

  /** Forgets one run. */
  forget(id: string): void {
    this.#generation++;
    this.#texts.delete(id);
  }

  /**
   * The engine as the server hands it out: the calls that change finished runs forget what
   * they change, before and after they run.
   */
  guard(engine: Engine): Engine {
    const runs = engine.workflowRuns;
    const files = engine.files;
    const around =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>, forget: (...args: A) => void) =>
      async (...args: A): Promise<R> => {
        forget(...args);
        try {
          return await call(...args);
        } finally {
          forget(...args);
        }
      };
    return {
      ...engine,
      workflowRuns: {
        ...runs,
        update: around(runs.update.bind(runs), (id) => this.forget(id)),
        delete: around(runs.delete.bind(runs), (id) => this.forget(id)),
      },
      files: { ...files, delete: around(files.delete.bind(files), (_id: string) => this.clear()) },
    };
  }
}
