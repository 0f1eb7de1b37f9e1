import { StorageError, type StorageErrorCode } from '../errors.ts';
import type { SqliteWriter } from './sqlite-writer.ts';

/** The writer's methods that can be called across the thread boundary. */
export type WriterMethod = Exclude<keyof SqliteWriter, symbol>;

/**
 * A call to the writer thread. One thread serves every adapter of the process: `open` (args:
 * the connection settings) returns a database handle, which the other calls name.
 */
export interface WriterCall {
  readonly id: number;
  readonly handle: number;
  readonly method: WriterMethod | 'open' | 'close';
  readonly args: readonly unknown[];
}

/** An error as it crosses the thread boundary (structured clone keeps no custom fields). */
export type WireError =
  | {
      readonly kind: 'storage';
      readonly code: StorageErrorCode;
      readonly message: string;
      readonly retryable: boolean;
      readonly details: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'other'; readonly name: string; readonly message: string };

/** What the writer thread sends back: one reply per call, in order. */
export type WriterReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: WireError };

/** An error made ready to cross to the other thread. */
export function toWire(error: unknown): WireError {
  if (error instanceof StorageError) {
    return {
      kind: 'storage',
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      details: error.details,
    };
  }
  return error instanceof Error
    ? { kind: 'other', name: error.name, message: error.message }
    : { kind: 'other', name: 'Error', message: String(error) };
}

/** The error a {@link WireError} stands for. */
export function fromWire(error: WireError): Error {
  if (error.kind === 'storage') {
    return new StorageError(error.code, error.message, {
      retryable: error.retryable,
      details: { ...error.details },
    });
  }
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  return rebuilt;
}
