/**
 * Options shared by the processor step executors: which provider does the work, how saved
 * processor references are resolved, and the outside world (HTTP, LibreOffice) some steps use.
 */
import type { FileSummary, UrlPolicyOptions } from '@docflow/engine';
import type { ParseConfig, ParseRunOutput } from '../parse/parse-output.ts';
import type { ResolveProcessor } from '../processors/processor-config.ts';
import type { Provider } from '../processors/provider.ts';
/** Parses a file's bytes when no PARSE output is on the path. */
export type ParseFallback = (bytes: Uint8Array, file: FileSummary, options: {
    readonly signal: AbortSignal;
    readonly config?: ParseConfig;
}) => Promise<{
    ok: true;
    output: ParseRunOutput;
} | {
    ok: false;
    reason: string;
    message: string;
}>;
/** Options of {@link processorSteps} and each processor executor. */
export interface ProcessorStepOptions {
    /** Who classifies, splits and extracts. Default {@link offlineProvider}. */
    readonly provider?: Provider;
    /**
     * Resolves `{ id, version }` processor references (EXTRACT `extractor`, CLASSIFY `classifier`,
     * SPLIT `splitter`, CONDITIONAL_EXTRACT rules). Injected by the engine; without it only
     * inline configs work and references fail with INVALID_PROCESSOR.
     */
    readonly resolveProcessor?: ResolveProcessor;
    /** Parses files when the path carries no PARSE output. Default: `parseDocument`. */
    readonly parse?: ParseFallback;
    /**
     * HTTP client underneath EXTERNAL_DATA_VALIDATION. Default: undici's, connecting only to
     * addresses the URL policy allows. Requests go through the policy either way.
     */
    readonly fetch?: typeof fetch;
    /**
     * Overrides of the `workflow` URL policy EXTERNAL_DATA_VALIDATION requests obey (default: no
     * loopback, link-local or metadata addresses; docs/operations.md "Security"). Tests whose
     * endpoint listens on 127.0.0.1 pass `{ allowLoopback: true }`.
     */
    readonly urlPolicy?: UrlPolicyOptions;
    /** EXTERNAL_DATA_VALIDATION answers are read up to this many bytes. Default 256 KiB. */
    readonly maxResponseBytes?: number;
    /** EXTERNAL_DATA_VALIDATION request timeout, ms. Default 30 000. */
    readonly externalRequestTimeoutMs?: number;
    /** LibreOffice binary for FILE_CONVERSION of Office files. Default: `soffice` on the PATH. */
    readonly sofficePath?: string;
    /** Credits charged per page read by a processor. Default 1. */
    readonly creditsPerPage?: number;
}
//# sourceMappingURL=processor-step-options.d.ts.map