/**
 * The EXTERNAL_DATA_VALIDATION executor: sends the path's data to an HTTP endpoint and records
 * `{ status, data }`. Requests are signed like webhooks: `x-service-request-timestamp` (Unix
 * seconds) and `x-service-request-signature` (hex HMAC-SHA-256 of `v0:<timestamp>:<raw body>`),
 * keyed with the run secret `externalDataValidationSigningSecret` (unsigned when the run has no
 * such secret). Header values may name run secrets as `{{secrets.NAME}}`.
 *
 * `failureBehavior` CONTINUE (default) records whatever happened (`status` 0 and `data.error`
 * when no response came); EXIT makes a non-2xx response or a failed request a step failure
 * (EXTERNAL_DATA_VALIDATION_FAILED), after retries for timeouts, network errors, 429 and 5xx.
 *
 * Requests obey the `workflow` URL policy (no loopback, link-local or metadata address, each
 * redirect checked again) and answers are read up to 256 KiB; a refused URL or a larger answer
 * is recorded like a failed request, and with EXIT fails the step without retries.
 */
import { createHmac } from 'node:crypto';
import { createPolicyFetch, defineStep, EngineErrorCode, isEngineError, StepError, urlPolicy, } from '@docflow/engine';
import { failureBehaviorSchema, httpUrlSchema } from './config-schemas.js';
import { formulaScope } from './step-outputs.js';
/** The run secret that keys the request signature. */
export const EXTERNAL_VALIDATION_SECRET_KEY = 'externalDataValidationSigningSecret';
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024;
function substituteSecrets(value, secrets) {
    return value.replace(/\{\{\s*secrets\.([\w-]+)\s*\}\}/g, (_, name) => secrets[name] ?? '');
}
function asData(text) {
    if (text.trim() === '')
        return {};
    try {
        const parsed = JSON.parse(text);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
            return parsed;
        return { value: parsed };
    }
    catch {
        return { text };
    }
}
/** The EXTERNAL_DATA_VALIDATION executor. */
export function externalDataValidationStep(options = {}) {
    const doFetch = createPolicyFetch({
        policy: urlPolicy('workflow', options.urlPolicy),
        maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        fetch: options.fetch,
    });
    return defineStep({
        type: 'EXTERNAL_DATA_VALIDATION',
        requiresConfig: true,
        configSchema: {
            type: 'object',
            required: ['requestOptions'],
            additionalProperties: false,
            properties: {
                requestOptions: {
                    type: 'object',
                    required: ['url', 'method'],
                    additionalProperties: false,
                    properties: {
                        url: httpUrlSchema,
                        method: { enum: ['GET', 'POST', 'PUT'] },
                        headers: { type: 'object', additionalProperties: { type: 'string' } },
                        contentType: { enum: ['application/json', 'text/plain'] },
                    },
                },
                failureBehavior: failureBehaviorSchema,
            },
        },
        async execute(input, context) {
            const { requestOptions } = input.config;
            const exit = input.config.failureBehavior === 'EXIT';
            const method = requestOptions.method;
            const body = method === 'GET'
                ? ''
                : JSON.stringify({
                    workflowRunId: context.runId,
                    stepName: input.stepName,
                    files: input.files.map((f) => ({ id: f.id, name: f.name })),
                    metadata: input.metadata,
                    outputs: formulaScope({ outputs: input.outputs, metadata: {} }),
                });
            const timestamp = String(Math.floor(context.now().getTime() / 1000));
            const headers = {};
            for (const [name, value] of Object.entries(requestOptions.headers ?? {})) {
                headers[name] = substituteSecrets(value, context.secrets);
            }
            if (method !== 'GET')
                headers['content-type'] = requestOptions.contentType ?? 'application/json';
            const secret = context.secrets[EXTERNAL_VALIDATION_SECRET_KEY];
            if (secret) {
                headers['x-service-request-timestamp'] = timestamp;
                headers['x-service-request-signature'] = createHmac('sha256', secret)
                    .update(`v0:${timestamp}:${body}`)
                    .digest('hex');
            }
            const timeout = AbortSignal.timeout(options.externalRequestTimeoutMs ?? DEFAULT_TIMEOUT_MS);
            const signal = AbortSignal.any([context.signal, timeout]);
            let status;
            let data;
            try {
                const response = await doFetch(requestOptions.url, {
                    method,
                    headers,
                    ...(method === 'GET' ? {} : { body }),
                    signal,
                });
                status = response.status;
                data = asData(await response.text());
            }
            catch (error) {
                context.signal.throwIfAborted();
                const message = timeout.aborted
                    ? `no response within ${options.externalRequestTimeoutMs ?? DEFAULT_TIMEOUT_MS} ms`
                    : (error.message ?? String(error));
                // A refused URL or an oversized answer will not change on a retry.
                const final = isEngineError(error, EngineErrorCode.URL_REFUSED) ||
                    isEngineError(error, EngineErrorCode.RESPONSE_TOO_LARGE);
                if (exit && final) {
                    return {
                        failure: {
                            reason: 'EXTERNAL_DATA_VALIDATION_FAILED',
                            message: `${method} ${requestOptions.url} failed: ${message}`,
                        },
                    };
                }
                if (exit) {
                    throw new StepError(`${method} ${requestOptions.url} failed: ${message}`, {
                        retryable: true,
                        reason: 'EXTERNAL_DATA_VALIDATION_FAILED',
                        cause: error,
                    });
                }
                return { output: { status: 0, data: { error: message } }, usage: { credits: 0 } };
            }
            if (exit && (status === 429 || status >= 500)) {
                throw new StepError(`${method} ${requestOptions.url} answered ${status}`, {
                    retryable: true,
                    reason: 'EXTERNAL_DATA_VALIDATION_FAILED',
                });
            }
            if (exit && (status < 200 || status >= 300)) {
                return {
                    failure: {
                        reason: 'EXTERNAL_DATA_VALIDATION_FAILED',
                        message: `${method} ${requestOptions.url} answered ${status}: ${JSON.stringify(data).slice(0, 300)}`,
                    },
                };
            }
            return { output: { status, data }, usage: { credits: 0 } };
        },
    });
}
//# sourceMappingURL=external-data-validation-step.js.map