/**
 * A provider backed by any OpenAI-compatible chat-completions endpoint (`POST
 * {baseUrl}/chat/completions`): OpenAI, Azure OpenAI, vLLM, llama.cpp server, Ollama, LM Studio.
 * Answers are requested as JSON-schema structured output (`response_format: { type:
 * "json_schema" }`); the executors then hold them to the processor contracts. Each attempt has a
 * timeout; timeouts, network errors, 429 and 5xx are retried with exponential backoff (honouring
 * `Retry-After`) and, when retries run out, thrown as a retryable `StepError` so the engine can
 * retry the step; other 4xx are thrown as non-retryable. Aborting the signal aborts the request.
 */
import { type UrlPolicyOptions } from '@docflow/engine';
import { type Provider } from '../provider.ts';
import type { DocumentView } from '../view/document-view.ts';
/** Options of {@link modelProvider}. */
export interface ModelProviderOptions {
    /** The API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`. */
    readonly baseUrl: string;
    /** Sent as `Authorization: Bearer <apiKey>` when given. */
    readonly apiKey?: string;
    readonly model: string;
    /** Per-attempt timeout, ms. Default 60 000. */
    readonly timeoutMs?: number;
    /** Retries after the first attempt. Default 3. */
    readonly maxRetries?: number;
    /** First backoff delay, ms (doubles each retry, with jitter). Default 500. */
    readonly retryBaseMs?: number;
    /** Longest document text sent, characters. Default 120 000. */
    readonly maxDocumentChars?: number;
    /** Extra request headers (e.g. `api-key` for Azure). */
    readonly headers?: Readonly<Record<string, string>>;
    /** HTTP client underneath. Default: undici's, connecting only to addresses the URL policy allows. */
    readonly fetch?: typeof fetch;
    /**
     * Overrides of the `provider` URL policy (default: any address but link-local and cloud
     * metadata ones, so a model served on this host or network works; docs/operations.md
     * "Security"). `{ denyHosts: [...] }` or a narrower policy is the engine owner's choice.
     */
    readonly urlPolicy?: UrlPolicyOptions;
    /** Answers are read up to this many bytes. Default 8 MiB. */
    readonly maxResponseBytes?: number;
}
/** The document as prompt text: pages with markers, cut at `max` characters. */
export declare function documentPrompt(view: DocumentView, max: number): string;
/**
 * The model {@link Provider}.
 *
 * @example
 * const provider = modelProvider({ baseUrl: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY, model: 'gpt-4o-mini' });
 * const steps = processorSteps({ provider });
 */
export declare function modelProvider(options: ModelProviderOptions): Provider;
//# sourceMappingURL=model-provider.d.ts.map