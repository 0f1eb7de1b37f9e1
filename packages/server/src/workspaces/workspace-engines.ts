import type { Engine } from '@docflow/engine';
import type { Workspace } from '../registry/registry.ts';

/** A workspace's engine as made. */
export interface WorkspaceEngine {
  readonly engine: Engine;
}

/** A workspace's started engine, as the server uses it. */
export interface WorkspaceScope {
  readonly engine: Engine;
}

/**
 * One started engine per workspace (decision 0009): each workspace's resources live in its own
 * storage, so isolation needs no scope on any query. Engines start on first use and, through
 * {@link WorkspaceEngines.startAll}, at server start so that unfinished runs resume.
 */
export class WorkspaceEngines {
  readonly #make: (workspace: Workspace) => WorkspaceEngine;
  readonly #engines = new Map<string, Promise<WorkspaceScope>>();
  /** The scopes whose engine has started, for callers that need no promise. */
  readonly #started = new Map<string, WorkspaceScope>();
  #closed = false;

  constructor(make: (workspace: Workspace) => WorkspaceEngine) {
    this.#make = make;
  }

  /** The workspace's engine, started. Concurrent first calls share one start. */
  async get(workspace: Workspace): Promise<Engine> {
    return (await this.scope(workspace)).engine;
  }

  /** The workspace's engine and what the server keeps beside it. */
  scope(workspace: Workspace): Promise<WorkspaceScope> {
    if (this.#closed) return Promise.reject(new Error('The server is shutting down'));
    let started = this.#engines.get(workspace.id);
    if (!started) {
      const { engine } = this.#make(workspace);
      started = engine.start().then(
        () => {
          const scope = { engine };
          if (!this.#closed) this.#started.set(workspace.id, scope);
          return scope;
        },
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

  /** The workspace's scope if its engine has started (and the server is not closing). */
  started(workspaceId: string): WorkspaceScope | undefined {
    return this.#closed ? undefined : this.#started.get(workspaceId);
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
    this.#started.clear();
    await Promise.all(
      engines.map((p) =>
        p.then(
          (scope) => scope.engine.stop(),
          () => undefined,
        ),
      ),
    );
  }
}
