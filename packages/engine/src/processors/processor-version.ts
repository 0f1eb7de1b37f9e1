/**
 * Published processor versions are `major.minor` ("1.0", "1.1", "2.0"). The first publish is
 * "1.0" whatever the release type; `minor` bumps the minor; `major` bumps the major and resets
 * the minor.
 */

/** The interface publish `releaseType`. */
export type ReleaseType = 'major' | 'minor';

/** A published version number. */
export interface VersionNumber {
  readonly major: number;
  readonly minor: number;
}

const VERSION = /^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$/;

/** `"1.1"` → `{ major: 1, minor: 1 }`; undefined when `text` is not a version number. */
export function parseVersion(text: string): VersionNumber | undefined {
  const match = VERSION.exec(text);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]) };
}

/** `{ major: 1, minor: 1 }` → `"1.1"`. */
export function formatVersion(version: VersionNumber): string {
  return `${version.major}.${version.minor}`;
}

/** The version a publish creates after `latest` (undefined: nothing published yet). */
export function nextVersion(
  latest: VersionNumber | undefined,
  releaseType: ReleaseType,
): VersionNumber {
  if (latest === undefined) return { major: 1, minor: 0 };
  return releaseType === 'major'
    ? { major: latest.major + 1, minor: 0 }
    : { major: latest.major, minor: latest.minor + 1 };
}
