import type { ValidationIssue } from '../errors.ts';

/**
 * Issues of a URL the engine will call or fetch (a webhook endpoint, a file source): absolute,
 * http or https. Empty when fine or when `url` is not a string (its schema reports that).
 */
export function urlIssues(url: unknown, path: string): ValidationIssue[] {
  if (typeof url !== 'string') return [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [{ code: 'INVALID_URL', path, message: 'must be an absolute http(s) URL' }];
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return [
      {
        code: 'INVALID_URL',
        path,
        message: `must use http or https, not ${parsed.protocol.slice(0, -1)}`,
      },
    ];
  }
  return [];
}
