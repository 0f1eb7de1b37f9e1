import { basename } from 'node:path';
import { createPolicyFetch } from '../net/policy-fetch.ts';
import { type UrlPolicyOptions, urlPolicy } from '../net/url-policy.ts';

/** A file given by URL, fetched: its name (from the URL's path) and bytes. */
export interface DownloadedFile {
  readonly name: string;
  readonly data: Uint8Array;
}

/** Settings of the downloads of URL file sources (`createEngine({ downloads })`). */
export interface DownloadOptions {
  /**
   * Overrides of the `document` URL policy: by default only public addresses are fetched
   * (loopback, private, link-local and metadata addresses are refused, at every redirect hop).
   */
  readonly urlPolicy?: UrlPolicyOptions;
  /** The largest download, bytes, read while streaming; default 100 MiB (PARSE's file limit). */
  readonly maxBytes?: number;
  /** How long a download may take, ms; default one minute. */
  readonly timeoutMs?: number;
}

/** The default largest download: what PARSE reads at most (`ParseLimits.maxFileBytes`). */
export const DEFAULT_DOWNLOAD_BYTES = 100 * 1024 * 1024;

/**
 * A downloader of URL file sources of runs (`file: { url }`) under the `document` URL policy:
 * the URL and every redirect hop checked, the addresses connected to checked, the body streamed
 * and dropped past `maxBytes` (`RESPONSE_TOO_LARGE`). Rejects on a refusal (`URL_REFUSED`), a
 * network error, a status other than 2xx, or the timeout.
 */
export function createDownloader(
  options: DownloadOptions = {},
): (url: string, signal?: AbortSignal) => Promise<DownloadedFile> {
  const get = createPolicyFetch({
    policy: urlPolicy('document', options.urlPolicy),
    maxResponseBytes: options.maxBytes ?? DEFAULT_DOWNLOAD_BYTES,
  });
  const timeoutMs = options.timeoutMs ?? 60_000;
  return async (url, signal) => {
    const response = await get(url, { signal: signal ?? AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`HTTP ${response.status}`);
    }
    const data = new Uint8Array(await response.arrayBuffer());
    const name = decodeURIComponent(basename(new URL(url).pathname)) || 'download';
    return { name, data };
  };
}
