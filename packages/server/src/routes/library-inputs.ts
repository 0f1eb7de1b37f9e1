/**
 * The request shapes the SDK sends, turned into what today's library takes. This module is the
 * one place that knows the difference: once the library accepts the SDK's shapes (saved
 * processors as `extractor: { id, version, overrideConfig }`, `file: { url }` and
 * `package: { files }` for every run kind), the routes hand bodies over as they are and this
 * module goes.
 */
import type { JsonObject } from '@docflow/storage';
import { notSupported } from '../http/api-error.ts';

/** What `engine.<kind>Runs.create` takes today. */
export interface LibraryRunInput {
  file?: { id: string } | { text: string; name?: string };
  files?: { id: string }[];
  config?: JsonObject;
  processor?: { id: string; version?: string };
  metadata?: JsonObject;
  priority?: number;
}

type FileBody = { id?: string; url?: string; text?: string; name?: string };

function libraryFile(file: FileBody, path: string): NonNullable<LibraryRunInput['file']> {
  if (file.id !== undefined) return { id: file.id };
  if (file.text !== undefined)
    return file.name === undefined ? { text: file.text } : { text: file.text, name: file.name };
  throw notSupported(
    `${path}.url`,
    'runs of this kind take a file by id (or text): upload it first with POST /files/upload',
  );
}

/** A run request body as the SDK sends it. */
export interface RunRequestBody {
  readonly file?: FileBody;
  readonly package?: { readonly files: readonly FileBody[] };
  readonly config?: JsonObject;
  readonly extractor?: { id: string; version?: string; overrideConfig?: JsonObject };
  readonly classifier?: { id: string; version?: string; overrideConfig?: JsonObject };
  readonly splitter?: { id: string; version?: string; overrideConfig?: JsonObject };
  readonly metadata?: JsonObject;
  readonly priority?: number;
  readonly dataRetention?: { mode?: string };
}

/** The library's input for one run of a standalone kind. */
export function libraryRunInput(
  body: RunRequestBody,
  processorKey: 'extractor' | 'classifier' | 'splitter' | undefined,
  path = 'body',
): LibraryRunInput {
  const input: LibraryRunInput = {};
  if (body.file !== undefined) input.file = libraryFile(body.file, `${path}.file`);
  if (body.package !== undefined) {
    input.files = body.package.files.map((f, i) => {
      const file = libraryFile(f, `${path}.package.files[${i}]`);
      if (!('id' in file)) {
        throw notSupported(`${path}.package.files[${i}]`, 'package files are given by id');
      }
      return file;
    });
  }
  const reference = processorKey === undefined ? undefined : body[processorKey];
  if (reference !== undefined) {
    if (reference.overrideConfig !== undefined) {
      throw notSupported(
        `${path}.${processorKey}.overrideConfig`,
        `docflow runs a saved ${processorKey} as published; give the whole config inline instead`,
      );
    }
    input.processor =
      reference.version === undefined
        ? { id: reference.id }
        : { id: reference.id, version: reference.version };
  }
  if (body.config !== undefined) input.config = body.config;
  if (body.metadata !== undefined) input.metadata = body.metadata;
  if (body.priority !== undefined) input.priority = body.priority;
  if (body.dataRetention?.mode !== undefined && body.dataRetention.mode !== 'workspace_default') {
    throw notSupported(`${path}.dataRetention.mode`, 'docflow keeps runs until they are deleted');
  }
  return input;
}
