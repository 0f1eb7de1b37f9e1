/**
 * A provider backed by any OpenAI-compatible chat-completions endpoint (`POST
 * {baseUrl}/chat/completions`): OpenAI, Azure OpenAI, vLLM, llama.cpp server, Ollama, LM Studio.
 * Answers are requested as JSON-schema structured output (`response_format: { type:
 * "json_schema" }`); the executors then hold them to the processor contracts. Each attempt has a
 * timeout; timeouts, network errors, 429 and 5xx are retried with exponential backoff (honouring
 * `Retry-After`) and, when retries run out, thrown as a retryable `StepError` so the engine can
 * retry the step; other 4xx are thrown as non-retryable. Aborting the signal aborts the request.
 */
import { createPolicyFetch, EngineErrorCode, isEngineError, StepError, urlPolicy, } from '@docflow/engine';
import { ProviderAnswerError, } from '../provider.js';
import { locateCitations } from './locate-citations.js';
function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
        if (signal?.aborted) {
            reject(signal.reason);
            return;
        }
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
        }, ms);
        const onAbort = () => {
            clearTimeout(timer);
            reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
    });
}
/** The document as prompt text: pages with markers, cut at `max` characters. */
export function documentPrompt(view, max) {
    const parts = [];
    let length = 0;
    for (const page of view.pages) {
        const marker = `--- Page ${page.number}${page.fileId === undefined || view.fileIds.length <= 1 ? '' : ` of file ${page.fileId}`} ---`;
        const text = `${marker}\n${page.text}\n`;
        if (length + text.length > max) {
            parts.push(`${text.slice(0, Math.max(0, max - length))}\n[document truncated]`);
            break;
        }
        parts.push(text);
        length += text.length;
    }
    return parts.join('\n');
}
/**
 * The model {@link Provider}.
 *
 * @example
 * const provider = modelProvider({ baseUrl: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY, model: 'gpt-4o-mini' });
 * const steps = processorSteps({ provider });
 */
export function modelProvider(options) {
    const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const timeoutMs = options.timeoutMs ?? 60_000;
    const maxRetries = options.maxRetries ?? 3;
    const retryBaseMs = options.retryBaseMs ?? 500;
    const maxChars = options.maxDocumentChars ?? 120_000;
    const doFetch = createPolicyFetch({
        policy: urlPolicy('provider', options.urlPolicy),
        maxResponseBytes: options.maxResponseBytes ?? 8 * 1024 * 1024,
        fetch: options.fetch,
    });
    async function complete(system, user, schemaName, schema, signal) {
        const body = JSON.stringify({
            model: options.model,
            temperature: 0,
            messages: [
                { role: 'system', content: system },
                { role: 'user', content: user },
            ],
            response_format: {
                type: 'json_schema',
                json_schema: { name: schemaName, schema, strict: false },
            },
        });
        const headers = {
            'content-type': 'application/json',
            ...options.headers,
        };
        if (options.apiKey)
            headers.authorization = `Bearer ${options.apiKey}`;
        let lastProblem = '';
        let retryAfterMs;
        for (let attempt = 0; attempt <= maxRetries; attempt++) {
            if (attempt > 0)
                await sleep(retryAfterMs ?? backoff(attempt), signal);
            const timeout = AbortSignal.timeout(timeoutMs);
            const attemptSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
            let response;
            let text;
            try {
                response = await doFetch(url, { method: 'POST', headers, body, signal: attemptSignal });
                text = await response.text();
            }
            catch (error) {
                if (signal?.aborted)
                    throw signal.reason;
                if (isEngineError(error, EngineErrorCode.URL_REFUSED) ||
                    isEngineError(error, EngineErrorCode.RESPONSE_TOO_LARGE)) {
                    throw new StepError(`Model endpoint ${url}: ${error.message}`, {
                        retryable: false,
                        reason: 'INVALID_CONFIGURATION',
                        cause: error,
                    });
                }
                lastProblem = timeout.aborted
                    ? `no answer within ${timeoutMs} ms`
                    : `request failed: ${error.message}`;
                retryAfterMs = undefined;
                continue;
            }
            if (response.status === 429 || response.status >= 500) {
                lastProblem = `${response.status} ${text.slice(0, 200)}`;
                const retryAfter = Number(response.headers.get('retry-after'));
                retryAfterMs =
                    Number.isFinite(retryAfter) && retryAfter > 0
                        ? Math.min(retryAfter * 1000, 30_000)
                        : undefined;
                continue;
            }
            if (!response.ok) {
                throw new StepError(`Model endpoint ${url} answered ${response.status}: ${text.slice(0, 300)}`, {
                    retryable: false,
                    reason: response.status === 401 || response.status === 403 || response.status === 404
                        ? 'INVALID_CONFIGURATION'
                        : 'INTERNAL_ERROR',
                });
            }
            let parsed;
            try {
                parsed = JSON.parse(text);
            }
            catch {
                throw new ProviderAnswerError(`the endpoint's response is not JSON: ${text.slice(0, 200)}`);
            }
            const message = parsed.choices?.[0]?.message;
            if (message?.refusal)
                throw new ProviderAnswerError(`the model refused: ${message.refusal}`);
            const content = message?.content;
            if (typeof content !== 'string')
                throw new ProviderAnswerError('the response has no message content');
            let value;
            try {
                value = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ''));
            }
            catch {
                throw new ProviderAnswerError(`the model's answer is not JSON: ${content.slice(0, 200)}`);
            }
            return {
                value,
                inputTokens: parsed.usage?.prompt_tokens ?? 0,
                outputTokens: parsed.usage?.completion_tokens ?? 0,
            };
        }
        throw new StepError(`Model endpoint ${url} failed after ${maxRetries + 1} attempts: ${lastProblem}`, {
            retryable: true,
            reason: 'INTERNAL_ERROR',
        });
    }
    function backoff(attempt) {
        const base = retryBaseMs * 2 ** (attempt - 1);
        return base / 2 + Math.random() * (base / 2);
    }
    const usageOf = (view, r) => ({
        pages: view.pages.length,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
    });
    const classificationList = (list) => list
        .map((c) => `- id "${c.id}": ${c.type}${c.description ? ` — ${c.description}` : ''}`)
        .join('\n');
    return {
        name: `model:${options.model}`,
        async classify(doc, config, call = {}) {
            const ids = config.classifications.map((c) => c.id);
            const schema = {
                type: 'object',
                additionalProperties: false,
                required: ['id', 'confidence', 'reasoning'],
                properties: {
                    id: { type: 'string', enum: ids },
                    confidence: { type: 'number', minimum: 0, maximum: 1 },
                    reasoning: { type: 'string' },
                },
            };
            const system = [
                'You classify business documents. Choose exactly one classification id from the list.',
                'Use the classification of type "other" when none fits. Report how confident you are (0 to 1).',
                'Classifications:',
                classificationList(config.classifications),
                config.classificationRules ? `Rules:\n${config.classificationRules}` : '',
            ].join('\n');
            const r = await complete(system, documentPrompt(doc, maxChars), 'classification', schema, call.signal);
            const v = r.value;
            const chosen = config.classifications.find((c) => c.id === v.id);
            if (!chosen)
                throw new ProviderAnswerError(`the model chose ${JSON.stringify(v.id)}, not a configured id`);
            return {
                output: {
                    id: chosen.id,
                    type: chosen.type,
                    confidence: typeof v.confidence === 'number' ? v.confidence : 0,
                    insights: typeof v.reasoning === 'string' ? [{ type: 'reasoning', content: v.reasoning }] : [],
                },
                usage: usageOf(doc, r),
            };
        },
        async extract(doc, schema, config, call = {}) {
            const system = [
                'You extract structured data from business documents into JSON that follows the given schema.',
                'Use null for values the document does not contain; never invent values.',
                'Dates as yyyy-mm-dd. Currency amounts as { "amount": number, "iso_4217": "USD" }. Numbers without thousands separators.',
                config.extractionRules ? `Rules:\n${config.extractionRules}` : '',
            ].join('\n');
            const r = await complete(system, documentPrompt(doc, maxChars), 'extraction', schema, call.signal);
            if (typeof r.value !== 'object' || r.value === null || Array.isArray(r.value)) {
                throw new ProviderAnswerError('the model did not answer with a JSON object');
            }
            const value = r.value;
            return { output: { value, metadata: locateCitations(doc, value) }, usage: usageOf(doc, r) };
        },
        async split(doc, config, call = {}) {
            const ids = config.splitClassifications.map((c) => c.id);
            const multiFile = doc.fileIds.length > 1;
            const schema = {
                type: 'object',
                additionalProperties: false,
                required: ['splits'],
                properties: {
                    splits: {
                        type: 'array',
                        items: {
                            type: 'object',
                            additionalProperties: false,
                            required: [
                                'classificationId',
                                'startPage',
                                'endPage',
                                'identifier',
                                'observation',
                                'confidence',
                                ...(multiFile ? ['fileId'] : []),
                            ],
                            properties: {
                                classificationId: { type: 'string', enum: ids },
                                startPage: { type: 'integer', minimum: 1 },
                                endPage: { type: 'integer', minimum: 1 },
                                identifier: { type: 'string' },
                                observation: { type: 'string' },
                                confidence: { type: 'number', minimum: 0, maximum: 1 },
                                ...(multiFile ? { fileId: { type: 'string', enum: [...doc.fileIds] } } : {}),
                            },
                        },
                    },
                },
            };
            const system = [
                'You split a file that holds several documents into contiguous page ranges, one per document, covering every page in order.',
                'Give each range a classification id from the list, an identifier (such as the invoice number) and a one-sentence observation.',
                'Classifications:',
                classificationList(config.splitClassifications),
                ...config.splitClassifications
                    .filter((c) => c.identifierKey)
                    .map((c) => `The identifier of a "${c.type}" is ${c.identifierKey}.`),
                config.splitRules ? `Rules:\n${config.splitRules}` : '',
            ].join('\n');
            const r = await complete(system, documentPrompt(doc, maxChars), 'split', schema, call.signal);
            const raw = r.value.splits;
            if (!Array.isArray(raw))
                throw new ProviderAnswerError('the model did not answer with a splits list');
            const splits = raw.flatMap((s) => {
                const item = s;
                const c = config.splitClassifications.find((x) => x.id === item.classificationId);
                if (!c || typeof item.startPage !== 'number' || typeof item.endPage !== 'number')
                    return [];
                return [
                    {
                        classificationId: c.id,
                        type: c.type,
                        startPage: item.startPage,
                        endPage: item.endPage,
                        identifier: typeof item.identifier === 'string'
                            ? item.identifier
                            : `${c.type}_${item.startPage}_${item.endPage}`,
                        observation: typeof item.observation === 'string' ? item.observation : '',
                        confidence: typeof item.confidence === 'number' ? item.confidence : 0,
                        ...(typeof item.fileId === 'string' ? { fileId: item.fileId } : {}),
                    },
                ];
            });
            return { splits, usage: usageOf(doc, r) };
        },
    };
}
//# sourceMappingURL=model-provider.js.map