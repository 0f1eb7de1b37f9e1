import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  formatVersion,
  nextVersion,
  parseVersion,
  type ReleaseType,
  type VersionNumber,
} from '../../src/processors/processor-version.ts';

const releases = fc.array(fc.constantFrom<ReleaseType>('major', 'minor'), {
  minLength: 1,
  maxLength: 40,
});

/** A reference model: count majors; minors since the last major (the first publish is 1.0). */
function model(sequence: readonly ReleaseType[]): string[] {
  let major = 0;
  let minor = 0;
  return sequence.map((release, i) => {
    if (i === 0) {
      major = 1;
      minor = 0;
    } else if (release === 'major') {
      major++;
      minor = 0;
    } else {
      minor++;
    }
    return `${major}.${minor}`;
  });
}

const compare = (a: VersionNumber, b: VersionNumber) => a.major - b.major || a.minor - b.minor;

describe('processor versions', () => {
  test.prop([releases])('follow the reference model and strictly increase', (sequence) => {
    let latest: VersionNumber | undefined;
    const out: string[] = [];
    for (const release of sequence) {
      const next = nextVersion(latest, release);
      if (latest) expect(compare(next, latest)).toBeGreaterThan(0);
      latest = next;
      out.push(formatVersion(next));
    }
    expect(out).toEqual(model(sequence));
  });

  test.prop([fc.nat({ max: 1e8 }), fc.nat({ max: 1e8 })])(
    'parse and format round-trip',
    (major, minor) => {
      const text = formatVersion({ major, minor });
      expect(parseVersion(text)).toEqual({ major, minor });
    },
  );

  it('parses only major.minor numbers', () => {
    for (const bad of [
      '1',
      '1.0.0',
      '01.0',
      '1.01',
      'v1.0',
      'draft',
      'latest',
      ' 1.0',
      '-1.0',
      '',
    ]) {
      expect(parseVersion(bad)).toBeUndefined();
    }
  });
});
