import type { Engine } from '@docflow/engine';
import type { Workspace } from '../registry/registry.ts';

/**
 * One started engine per workspace (decision 0009): each workspace's resources live in its own
 * storage, so isolation needs no scope on any query. Engines start on first use and, through
 * {@link WorkspaceEngines.startAll}, at server start so that unfinished runs resume.
 */
export class WorkspaceEngines {
  readonly #make: (workspace: Workspace) => Engine;
  readonly #engines = new Map<string, Promise<Engine>>();
  #closed = false;

  constructor(make: (workspace: Workspace) => Engine) {
    this.#make = make;
  }

  /** The workspace's engine, started. Concurrent first calls share one start. */
  get(workspace: Workspace): Promise<Engine> {
    if (this.#closed) return Promise.reject(new Error('The server is shutting down'));
    let started = this.#engines.get(workspace.id);
    if (!started) {
      const engine = this.#make(workspace);
      started = engine.start().then(
        () => engine,
        (error: unknown) => {
          // A failed start is not kept: the next request tries again.
          this.#engines.delete(workspace.id);
          throw error;
        },
      );
      this.#engines.set(workspace.id, started);
    }
    return started;
  }

  /** Starts the engines of `workspaces` (their unfinished runs resume). */
  async startAll(workspaces: readonly Workspace[]): Promise<void> {
    await Promise.all(workspaces.map((w) => this.get(w)));
  }

  /** How many engines are started or starting. */
  get size(): number {
    return this.#engines.size;
  }

  /** Stops every engine: in-flight steps go back to their storage, to run again on the next start. */
  async stopAll(): Promise<void> {
    this.#closed = true;
    const engines = [...this.#engines.values()];
    this.#engines.clear();
    await Promise.all(
      engines.map((p) =>
        p.then(
          (engine) => engine.stop(),
          () => undefined,
        ),
      ),
    );
  }
}
