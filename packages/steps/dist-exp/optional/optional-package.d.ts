/**
 * The heavy parts of @docflow/steps that a user may leave out (optional peer dependencies,
 * decision 0024): each loads at its first use, never when the package is imported.
 */
export type OptionalPackage = 'sharp' | 'tesseract.js' | '@tesseract.js-data/eng' | '@tesseract.js-data/osd' | 'zxing-wasm';
/**
 * A feature needs optional packages that are not installed. Its message names the feature and
 * the command that adds them, with the version ranges @docflow/steps declares.
 */
export declare class MissingPackageError extends Error {
    readonly name = "MissingPackageError";
    readonly packages: readonly OptionalPackage[];
    constructor(feature: string, packages: readonly OptionalPackage[]);
}
/** True when `error` is a {@link MissingPackageError} (also across copies of this module). */
export declare function isMissingPackageError(error: unknown): error is MissingPackageError;
/** True when `name` resolves from this package. */
export declare function isInstalled(name: OptionalPackage): boolean;
/**
 * Throws a {@link MissingPackageError} naming every package of `packages` that is not installed,
 * so that one message lists all a feature lacks.
 */
export declare function requirePackages(feature: string, packages: readonly OptionalPackage[]): void;
/** The directory of an installed data package (`@tesseract.js-data/*`), for file paths in it. */
export declare function packageDirectory(name: OptionalPackage, feature: string): string;
/** sharp's default export, for `feature`. */
export declare function loadSharp(feature: string): Promise<typeof import('sharp')['default']>;
/** tesseract.js, for `feature`. */
export declare function loadTesseract(feature: string): Promise<typeof import('tesseract.js')>;
/** zxing-wasm's reader, for `feature`. */
export declare function loadBarcodeReader(feature: string): Promise<typeof import('zxing-wasm/reader')>;
//# sourceMappingURL=optional-package.d.ts.map