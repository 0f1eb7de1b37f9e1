import { basename } from 'node:path';

/** A file given by URL, fetched: its name (from the URL's path) and bytes. */
export interface DownloadedFile {
  readonly name: string;
  readonly data: Uint8Array;
}

/**
 * Downloads a URL file source of a run (`file: { url }`), in at most a minute unless `signal`
 * says otherwise. Rejects on a network error or a status other than 2xx.
 */
export async function downloadUrl(url: string, signal?: AbortSignal): Promise<DownloadedFile> {
  const response = await fetch(url, { signal: signal ?? AbortSignal.timeout(60_000) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const data = new Uint8Array(await response.arrayBuffer());
  const name = decodeURIComponent(basename(new URL(url).pathname)) || 'download';
  return { name, data };
}
