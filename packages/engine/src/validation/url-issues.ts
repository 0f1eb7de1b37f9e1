import type { ValidationIssue } from '../errors.ts';
import { checkUrl, urlPolicy } from '../net/url-policy.ts';

// What no policy lets through, checked when a URL is given: credentials in it, schemes other
// than http(s), link-local and cloud metadata addresses. Loopback and private addresses are
// decided when the request is made, by the URL policy of its purpose (a test receiver on
// 127.0.0.1 is a valid endpoint to create).
const GIVEN_URL_POLICY = urlPolicy('workflow', { allowLoopback: true, allowPrivate: true });

/**
 * Issues of a URL the engine will call or fetch (a webhook endpoint, a file source): absolute,
 * http or https, no credentials, no link-local or metadata address. Empty when fine or when `url`
 * is not a string (its schema reports that).
 */
export function urlIssues(url: unknown, path: string): ValidationIssue[] {
  if (typeof url !== 'string') return [];
  const checked = checkUrl(url, GIVEN_URL_POLICY);
  if (checked.ok) return [];
  return [{ code: 'INVALID_URL', path, message: `is refused: it ${checked.reason}` }];
}
