/** What the adapter tells the checkpoint thread. */
export type CheckpointMessage =
  | {
      readonly type: 'add';
      readonly id: number;
      readonly path: string;
      readonly synchronous: 'NORMAL' | 'FULL';
      readonly intervalMs: number;
      /** `[0]` is incremented on every commit. */
      readonly activity: Int32Array;
    }
  | { readonly type: 'remove'; readonly id: number };

/** The thread's answer to each message. */
export type CheckpointReply =
  | { readonly id: number; readonly ok: true }
  | { readonly id: number; readonly ok: false; readonly message: string };
