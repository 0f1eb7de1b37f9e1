import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '../../src/files/detect-file-type.ts';

const SIGNATURES = [
  [0x25, 0x50, 0x44, 0x46, 0x2d],
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff],
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
  [0x42, 0x4d],
  [0x49, 0x49, 0x2a, 0x00],
];

describe('detectFileType laws', () => {
  it('never throws and always names a MIME type, whatever the bytes', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 512 }),
      fc
        .tuple(fc.constantFrom(...SIGNATURES), fc.uint8Array({ maxLength: 512 }))
        .map(([head, tail]) => new Uint8Array([...head, ...tail])),
    );
    fc.assert(
      fc.property(bytes, fc.option(fc.string(), { nil: undefined }), (data, name) => {
        const detected = detectFileType(data, name);
        expect(detected.mimeType).toMatch(/^[a-z]+\/[\w.+-]+$/);
      }),
    );
  });

  it('the name never changes the type of binary content', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SIGNATURES),
        fc.uint8Array({ minLength: 64, maxLength: 256 }),
        fc.constantFrom('a.txt', 'a.csv', 'a.pdf', 'a.html', 'a.xml'),
        (head, tail, name) => {
          const data = new Uint8Array([...head, 0, ...tail]);
          expect(detectFileType(data, name)).toEqual(detectFileType(data));
        },
      ),
    );
  });
});
