import { webhookHeaderNames } from '@docflow/engine';

/** The default header word: the one the service's SDK sends, so it works unchanged. */
export const DEFAULT_SERVER_HEADER_WORD = 'extend';

/** The only API version the interface accepts (the interface's Versioning). */
export const API_VERSION = '2026-02-09';

/** Request headers that carry the header word. */
export interface RequestHeaderNames {
  /** `x-<word>-api-version` */
  readonly apiVersion: string;
  /** `x-<word>-workspace-id` */
  readonly workspaceId: string;
}

/** Request header names for `word` (checked as webhook header words are). */
export function requestHeaderNames(word: string): RequestHeaderNames {
  // The same rule as the webhook headers, so one word is valid for both or for neither.
  webhookHeaderNames(word);
  return { apiVersion: `x-${word}-api-version`, workspaceId: `x-${word}-workspace-id` };
}

/** The response header carrying the request id. */
export const REQUEST_ID_HEADER = 'x-request-id';
