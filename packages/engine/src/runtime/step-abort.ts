/**
 * How the engine aborts an executing step (cancel, a failure elsewhere in the run, invalidation,
 * a timeout, `stop()`), and the `AbortSignal` its executor sees. The signal is made only when
 * the executor reads `context.signal`, already aborted if the step was: Node's `AbortController`
 * and its signal cost about 4 µs per step, a fifth of the engine's own work on a step whose
 * executor never looks at it (bench/README.md).
 */
export class StepAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why it was aborted (undefined until then); as `AbortSignal.reason`. */
  get reason(): unknown {
    return this.#reason;
  }

  /** The executor's signal, made on first use. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** As `AbortController.abort`: the first call wins; no reason means an `AbortError`. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.#controller?.abort(this.#reason);
  }
}
