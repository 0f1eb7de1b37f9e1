/**
 * Runs a provider and holds it to the processor contracts: extraction output conforms to the
 * schema (repaired, or POST_PROCESSING_FAILURE), a classification is one of the configured ones,
 * splits are contiguous and cover the document. Domain problems come back as failures with a
 * The interface reason; infrastructure errors (a provider's `StepError`, an abort) propagate.
 */
import { StepError } from '@docflow/engine';
import { checkExtractionSchema, conformToSchema } from './conform-to-schema.js';
import { selectPageRanges, selectSheetRanges } from './page-selection.js';
import { ProviderAnswerError } from './provider.js';
/** True when an outcome is a failure. */
export function isProcessorFailure(outcome) {
    return 'failure' in outcome;
}
function fail(reason, message) {
    return { failure: { reason, message } };
}
/** Calls a provider; abort and StepError propagate, anything else is INTERNAL_ERROR. */
async function guarded(provider, signal, call) {
    try {
        return await call();
    }
    catch (error) {
        if (signal?.aborted)
            throw signal.reason ?? error;
        if (error instanceof StepError)
            throw error;
        if (error instanceof ProviderAnswerError) {
            return fail('POST_PROCESSING_FAILURE', `The ${provider.name} provider's answer is unusable: ${error.message}`);
        }
        return fail('INTERNAL_ERROR', `Provider ${provider.name} failed: ${error.message ?? String(error)}`);
    }
}
function isFailureValue(value) {
    return typeof value === 'object' && value !== null && 'failure' in value;
}
/** Problems of a classification list: ids unique, types present, exactly one `other`. */
export function checkClassifications(list, path) {
    if (!Array.isArray(list) || list.length === 0)
        return [`${path}: at least one classification is required`];
    const problems = [];
    const seen = new Set();
    let others = 0;
    list.forEach((c, i) => {
        if (typeof c.id !== 'string' || c.id === '')
            problems.push(`${path}[${i}].id: must be a non-empty string`);
        else if (seen.has(c.id))
            problems.push(`${path}[${i}].id: duplicate id "${c.id}"`);
        else
            seen.add(c.id);
        if (typeof c.type !== 'string' || c.type === '')
            problems.push(`${path}[${i}].type: must be a non-empty string`);
        else if (c.type.toLowerCase() === 'other')
            others++;
    });
    if (others !== 1)
        problems.push(`${path}: exactly one classification must have type "other" (found ${others})`);
    return problems;
}
/** Extracts with `config.schema`, conformed to the schema. */
export async function runExtraction(provider, view, config, signal) {
    const problems = checkExtractionSchema(config.schema);
    if (problems.length > 0)
        return fail('INVALID_CONFIGURATION', problems.join('; '));
    const options = config.advancedOptions;
    const selected = selectSheetRanges(selectPageRanges(view, options?.pageRanges), options?.excelSheetRanges);
    const result = await guarded(provider, signal, () => provider.extract(selected, config.schema, config, signal ? { signal } : {}));
    if (isFailureValue(result))
        return result;
    const conformed = conformToSchema(result.output.value, config.schema);
    if (!conformed.ok) {
        return fail('POST_PROCESSING_FAILURE', `The ${provider.name} provider's answer does not conform to the schema: ${conformed.errors.slice(0, 5).join('; ')}`);
    }
    const metadata = { ...result.output.metadata };
    if (options?.citationsEnabled === false) {
        for (const [path, m] of Object.entries(metadata))
            metadata[path] = { ...m, citations: [] };
    }
    if (conformed.repairs.length > 0) {
        const issues = conformed.repairs.map((r) => ({ type: 'issue', content: r }));
        const root = metadata[''];
        metadata[''] = {
            ocrConfidence: root?.ocrConfidence ?? null,
            logprobsConfidence: root?.logprobsConfidence ?? null,
            confidence: root?.confidence ?? null,
            citations: root?.citations ?? [],
            insights: [...(root?.insights ?? []), ...issues],
        };
    }
    return { output: { value: conformed.value, metadata }, usage: result.usage };
}
/** Classifies; the answer must name a configured classification. */
export async function runClassification(provider, view, config, signal) {
    const problems = checkClassifications(config.classifications, 'classifications');
    if (problems.length > 0)
        return fail('INVALID_CONFIGURATION', problems.join('; '));
    const selected = selectPageRanges(view, config.advancedOptions?.pageRanges);
    const result = await guarded(provider, signal, () => provider.classify(selected, config, signal ? { signal } : {}));
    if (isFailureValue(result))
        return result;
    const chosen = config.classifications.find((c) => c.id === result.output.id);
    if (!chosen) {
        return fail('POST_PROCESSING_FAILURE', `The ${provider.name} provider chose "${result.output.id}", which is not a configured classification id`);
    }
    const confidence = Math.min(1, Math.max(0, Number(result.output.confidence) || 0));
    return {
        output: {
            id: chosen.id,
            type: chosen.type,
            confidence,
            insights: result.output.insights ?? [],
        },
        usage: result.usage,
    };
}
/**
 * Holds proposed splits to the contract: per file, sorted, clamped to the file's pages, gaps
 * given to the preceding split (or the next one at the start), overlaps cut; unknown
 * classification ids become `other`.
 */
export function normalizeSplits(view, proposed, classifications) {
    const other = classifications.find((c) => c.type.toLowerCase() === 'other') ?? classifications[0];
    const byFile = new Map();
    for (const page of view.pages) {
        const list = byFile.get(page.fileId ?? '') ?? [];
        list.push(page.number);
        byFile.set(page.fileId ?? '', list);
    }
    const out = [];
    for (const [fileKey, numbers] of byFile) {
        const first = Math.min(...numbers);
        const last = Math.max(...numbers);
        const mine = proposed
            .filter((s) => (s.fileId ?? '') === fileKey ||
            (fileKey !== '' && s.fileId === undefined && byFile.size === 1))
            .map((s) => ({
            ...s,
            startPage: Math.max(first, Math.min(last, Math.round(s.startPage))),
            endPage: Math.max(first, Math.min(last, Math.round(s.endPage))),
        }))
            .filter((s) => s.endPage >= s.startPage)
            .sort((a, b) => a.startPage - b.startPage || a.endPage - b.endPage);
        const fixed = [];
        for (const s of mine) {
            const prev = fixed[fixed.length - 1];
            const start = prev ? prev.endPage + 1 : first;
            if (s.endPage < start)
                continue;
            if (prev && s.startPage > start)
                fixed[fixed.length - 1] = { ...prev, endPage: s.startPage - 1 };
            const known = classifications.find((c) => c.id === s.classificationId);
            fixed.push({
                ...s,
                startPage: prev ? Math.max(s.startPage, start) : first,
                ...(known
                    ? { type: known.type }
                    : { classificationId: other?.id ?? s.classificationId, type: other?.type ?? s.type }),
                ...(fileKey === '' ? {} : { fileId: fileKey }),
            });
        }
        const tail = fixed[fixed.length - 1];
        if (!tail) {
            fixed.push({
                classificationId: other?.id ?? 'other',
                type: other?.type ?? 'other',
                startPage: first,
                endPage: last,
                identifier: `${other?.type ?? 'other'}_${first}_${last}`,
                observation: 'The provider proposed no split for these pages.',
                confidence: 0,
                ...(fileKey === '' ? {} : { fileId: fileKey }),
            });
        }
        else if (tail.endPage < last) {
            fixed[fixed.length - 1] = { ...tail, endPage: last };
        }
        out.push(...fixed);
    }
    return out;
}
/** Splits; the answer is normalized to contiguous splits covering every page. */
export async function runSplit(provider, view, config, signal) {
    const problems = checkClassifications(config.splitClassifications, 'splitClassifications');
    if (problems.length > 0)
        return fail('INVALID_CONFIGURATION', problems.join('; '));
    const selected = selectPageRanges(view, config.advancedOptions?.pageRanges);
    if (selected.pages.length === 0)
        return fail('FAILED_TO_PROCESS_FILE', 'The document has no pages to split');
    const result = await guarded(provider, signal, () => provider.split(selected, config, signal ? { signal } : {}));
    if (isFailureValue(result))
        return result;
    return {
        output: normalizeSplits(selected, result.splits, config.splitClassifications),
        usage: result.usage,
    };
}
//# sourceMappingURL=run-processor.js.map