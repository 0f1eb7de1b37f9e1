import { createRequire } from 'node:module';

/**
 * The heavy parts of @docflow/steps that a user may leave out (optional peer dependencies,
 * decision 0024): each loads at its first use, never when the package is imported.
 */
export type OptionalPackage =
  | 'sharp'
  | 'tesseract.js'
  | '@tesseract.js-data/eng'
  | '@tesseract.js-data/deu'
  | '@tesseract.js-data/osd'
  | 'zxing-wasm';

/**
 * What each package is resolved by: a specifier CommonJS resolution accepts (the data packages
 * have no entry module, zxing-wasm exports no package.json).
 */
const PROBE: Readonly<Record<OptionalPackage, string>> = {
  sharp: 'sharp',
  'tesseract.js': 'tesseract.js',
  '@tesseract.js-data/eng': '@tesseract.js-data/eng/package.json',
  '@tesseract.js-data/deu': '@tesseract.js-data/deu/package.json',
  '@tesseract.js-data/osd': '@tesseract.js-data/osd/package.json',
  'zxing-wasm': 'zxing-wasm',
};

const require = createRequire(import.meta.url);

/**
 * A feature needs optional packages that are not installed. Its message names the feature and
 * the command that adds them, with the version ranges @docflow/steps declares.
 */
export class MissingPackageError extends Error {
  override readonly name = 'MissingPackageError';
  readonly packages: readonly OptionalPackage[];

  constructor(feature: string, packages: readonly OptionalPackage[]) {
    const ranges = peerRanges();
    const names =
      packages.length === 1
        ? `the optional package ${packages[0]}, which is`
        : `the optional packages ${packages.slice(0, -1).join(', ')} and ${packages.at(-1)}, which are`;
    const install = packages.map((name) => `"${name}@${ranges[name] ?? 'latest'}"`).join(' ');
    super(`${feature} needs ${names} not installed: npm install ${install}`);
    this.packages = packages;
  }
}

/** True when `error` is a {@link MissingPackageError} (also across copies of this module). */
export function isMissingPackageError(error: unknown): error is MissingPackageError {
  return error instanceof Error && error.name === 'MissingPackageError' && 'packages' in error;
}

/** The version ranges in this package's `peerDependencies`, read only when a message needs them. */
function peerRanges(): Partial<Record<string, string>> {
  try {
    // src/optional/ and dist/optional/ are both two levels below the package root.
    const manifest = require('../../package.json') as {
      peerDependencies?: Record<string, string>;
    };
    return manifest.peerDependencies ?? {};
  } catch {
    return {};
  }
}

/** True when `name` resolves from this package. */
export function isInstalled(name: OptionalPackage): boolean {
  try {
    require.resolve(PROBE[name]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws a {@link MissingPackageError} naming every package of `packages` that is not installed,
 * so that one message lists all a feature lacks.
 */
export function requirePackages(feature: string, packages: readonly OptionalPackage[]): void {
  const missing = packages.filter((name) => !isInstalled(name));
  if (missing.length > 0) throw new MissingPackageError(feature, missing);
}

/** The directory of an installed data package (`@tesseract.js-data/*`), for file paths in it. */
export function packageDirectory(name: OptionalPackage, feature: string): string {
  requirePackages(feature, [name]);
  return require.resolve(PROBE[name]).replace(/[\\/]package\.json$/, '');
}

/**
 * Imports an optional package at its first use. A package that is not installed becomes a
 * {@link MissingPackageError}; any other failure (a broken native binary) passes unchanged.
 */
async function loadOptional<T>(
  name: OptionalPackage,
  feature: string,
  load: () => Promise<T>,
): Promise<T> {
  requirePackages(feature, [name]);
  try {
    return await load();
  } catch (error) {
    // Resolvable for `require` but not for `import` (a NODE_PATH entry, which ESM ignores).
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(`'${name}'`)) {
      throw new MissingPackageError(feature, [name]);
    }
    throw error;
  }
}

/** sharp's default export, for `feature`. */
export async function loadSharp(feature: string): Promise<typeof import('sharp')['default']> {
  return (await loadOptional('sharp', feature, () => import('sharp'))).default;
}

/** tesseract.js, for `feature`. */
export function loadTesseract(feature: string): Promise<typeof import('tesseract.js')> {
  return loadOptional('tesseract.js', feature, () => import('tesseract.js'));
}

/** zxing-wasm's reader, for `feature`. */
export function loadBarcodeReader(feature: string): Promise<typeof import('zxing-wasm/reader')> {
  return loadOptional('zxing-wasm', feature, () => import('zxing-wasm/reader'));
}
