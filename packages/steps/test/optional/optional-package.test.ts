import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isInstalled,
  isMissingPackageError,
  MissingPackageError,
  type OptionalPackage,
  requirePackages,
} from '../../src/optional/optional-package.ts';

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

const OPTIONAL: readonly OptionalPackage[] = [
  'sharp',
  'tesseract.js',
  '@tesseract.js-data/eng',
  '@tesseract.js-data/deu',
  '@tesseract.js-data/osd',
  'zxing-wasm',
];

describe('the optional packages of @docflow/steps', () => {
  it('are exactly the optional peer dependencies, installed in the workspace for the tests', () => {
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual([...OPTIONAL].sort());
    for (const name of OPTIONAL) {
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(manifest.dependencies[name], `${name} is not a dependency`).toBeUndefined();
      // The workspace tests every feature: the exact version is a dev dependency in the range.
      expect(manifest.peerDependencies[name]).toBe(`^${manifest.devDependencies[name]}`);
      expect(isInstalled(name), name).toBe(true);
    }
    expect(() => requirePackages('OCR', OPTIONAL)).not.toThrow();
  });

  it('are named, with the command that adds them, when a feature lacks them', () => {
    const one = new MissingPackageError('Reading barcodes', ['zxing-wasm']);
    expect(one.message).toBe(
      'Reading barcodes needs the optional package zxing-wasm, which is not installed: npm install "zxing-wasm@^3.1.4"',
    );
    const three = new MissingPackageError('OCR', [
      'tesseract.js',
      '@tesseract.js-data/eng',
      'sharp',
    ]);
    expect(three.message).toBe(
      'OCR needs the optional packages tesseract.js, @tesseract.js-data/eng and sharp, which are not installed: npm install "tesseract.js@^7.0.0" "@tesseract.js-data/eng@^1.0.0" "sharp@^0.35.5"',
    );
    expect(three.packages).toEqual(['tesseract.js', '@tesseract.js-data/eng', 'sharp']);
    expect(isMissingPackageError(three)).toBe(true);
    expect(isMissingPackageError(new Error(three.message))).toBe(false);
  });
});
