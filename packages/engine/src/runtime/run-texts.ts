import type { RunStatus } from '../run/lifecycle.ts';

/** Run texts kept at most per engine: the oldest kept goes first. */
const CAPACITY = 2000;
/**
 * Characters kept at most per engine, all texts together (a run's text carries its outputs,
 * those in the blob store included): the oldest go first, and a longer text is not kept.
 */
const CHARACTERS = 64 * 2 ** 20;

/** A run's JSON text as `workflowRuns.getJson` answers it, with its status. */
export interface RunText {
  readonly status: RunStatus;
  readonly json: string;
}

interface Kept {
  readonly text: RunText;
  /** The count of file deletions when the text was read (a deleted file shows as null). */
  readonly deletions: number;
}

/**
 * The JSON texts of runs as `workflowRuns.getJson` made them (what `GET /workflow_runs/{id}`
 * answers), finished and unfinished runs alike, so that asking again costs a lookup instead of
 * a read, a projection and a serialization. One rule keeps them right: a text is kept until this
 * engine commits something it shows. A commit of the run (a step's outcome, a cancel, a
 * metadata update) or its deletion forgets the run's text ({@link changed}, called by the run
 * store); a file deletion, which any run may show, makes every text older than it stale (the
 * count of deletions is part of the entry). A read that such a change overtook keeps nothing.
 * On storage several processes share nothing is kept: another process's changes go unseen.
 */
export class RunTexts {
  readonly #texts = new Map<string, Kept>();
  /** The characters of the texts kept. */
  #characters = 0;
  /** Reads under way, by run; `overtaken` once a change of the run came during one. */
  readonly #reading = new Map<string, { count: number; overtaken: boolean }>();
  readonly #keep: boolean;

  constructor(options: { readonly keep: boolean }) {
    this.#keep = options.keep;
  }

  /**
   * The run's text: the one kept, unless a file was deleted since (`deletions`: the count of
   * deletions committed so far), else what `read` makes (kept unless a change overtook it).
   */
  async text(id: string, deletions: number, read: () => Promise<RunText>): Promise<RunText> {
    const known = this.#texts.get(id);
    if (known !== undefined && known.deletions === deletions) return known.text;
    if (!this.#keep) return read();
    let mark = this.#reading.get(id);
    if (mark === undefined) {
      mark = { count: 0, overtaken: false };
      this.#reading.set(id, mark);
    }
    mark.count++;
    try {
      const text = await read();
      if (!mark.overtaken) this.#set(id, { text, deletions });
      return text;
    } finally {
      if (--mark.count === 0) this.#reading.delete(id);
    }
  }

  /** The run changed (committed or deleted by this engine): its text goes. */
  changed(id: string): void {
    this.#forget(id);
    const mark = this.#reading.get(id);
    if (mark !== undefined) mark.overtaken = true;
  }

  #set(id: string, kept: Kept): void {
    this.#forget(id);
    const length = kept.text.json.length;
    if (length > CHARACTERS) return;
    // Oldest first: a Map iterates in insertion order.
    while (this.#texts.size >= CAPACITY || this.#characters + length > CHARACTERS) {
      this.#forget(this.#texts.keys().next().value as string);
    }
    this.#texts.set(id, kept);
    this.#characters += length;
  }

  #forget(id: string): void {
    const kept = this.#texts.get(id);
    if (kept === undefined) return;
    this.#texts.delete(id);
    this.#characters -= kept.text.json.length;
  }
}
