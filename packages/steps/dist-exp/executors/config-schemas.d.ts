/**
 * JSON Schema fragments of the processor step configs (docs/workflows.md). The
 * engine validates step configs against them at create, update and deploy; the executors check
 * what JSON Schema cannot say (unique classification ids, one `other`).
 */
type Schema = {
    readonly [key: string]: Schema | Schema[] | string | number | boolean | readonly string[] | null;
};
/**
 * Size limits of step configs, so that validating and running a definition stays bounded (the
 * engine's definition checks bound the rest of a definition alike).
 */
export declare const CONFIG_LIMITS: {
    readonly idLength: 200;
    readonly nameLength: 128;
    readonly textLength: 10000;
    readonly classifications: 500;
    readonly rules: 200;
    readonly urlLength: 2048;
};
/** An http: or https: URL the step calls. */
export declare const httpUrlSchema: Schema;
/** `{ id, version }` of a saved processor; `pinned` forbids `latest` (CLASSIFY, SPLIT). */
export declare function processorReferenceSchema(pinned: boolean): Schema;
/** An inline extraction config: a JSON `schema` is required in workflows. */
export declare const extractionConfigSchema: Schema;
/** An inline classification config. */
export declare const classificationConfigSchema: Schema;
/** An inline split config. */
export declare const splitterConfigSchema: Schema;
/** `failureBehavior` of EXTERNAL_DATA_VALIDATION and FILE_CONVERSION. */
export declare const failureBehaviorSchema: Schema;
export {};
//# sourceMappingURL=config-schemas.d.ts.map