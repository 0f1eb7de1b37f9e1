/**
 * The MERGE_EXTRACT executor: merges the extraction outputs on the path (after a COLLECT they
 * arrive as arrays) into one `{ value, metadata }`, field by top-level field. For each field the
 * candidates are the outputs where it is present (not null, not an empty array), chosen by
 * `mergeOrder`:
 * - `confidence` (default): the highest field confidence (`confidence`, else `ocrConfidence`,
 *   else the mean over the field's sub-paths), ties to the earlier output;
 * - `first_to_execute` / `last_to_execute`: the earliest / latest output in path order;
 * - `alphabetic`: the output of the alphabetically first step name.
 * The chosen output's metadata entries for the field come along.
 */
import { defineStep } from '@docflow/engine';
import { extractOutputsOf } from './step-outputs.js';
function present(value) {
    if (value === undefined || value === null)
        return false;
    if (Array.isArray(value))
        return value.length > 0;
    return true;
}
function belongs(path, field) {
    return path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);
}
/** The confidence of a top-level field of an output. */
export function fieldConfidence(metadata, field) {
    const direct = metadata[field];
    const own = direct?.confidence ?? direct?.ocrConfidence ?? direct?.logprobsConfidence;
    if (typeof own === 'number')
        return own;
    const subs = Object.entries(metadata)
        .filter(([path]) => belongs(path, field))
        .map(([, m]) => m.confidence ?? m.ocrConfidence ?? m.logprobsConfidence)
        .filter((c) => typeof c === 'number');
    return subs.length === 0 ? 0 : subs.reduce((a, b) => a + b, 0) / subs.length;
}
/** Merges extraction outputs in path order by `order`. */
export function mergeExtractOutputs(sources, order) {
    const ordered = order === 'alphabetic'
        ? [...sources].sort((a, b) => a.stepName < b.stepName ? -1 : a.stepName > b.stepName ? 1 : 0)
        : order === 'last_to_execute'
            ? [...sources].reverse()
            : sources;
    const fields = [];
    for (const s of sources)
        for (const key of Object.keys(s.output.value))
            if (!fields.includes(key))
                fields.push(key);
    const value = {};
    const metadata = {};
    const chosenFrom = {};
    for (const field of fields) {
        const candidates = ordered.filter((s) => present(s.output.value[field]));
        let chosen = candidates[0];
        if (order === 'confidence') {
            let best = Number.NEGATIVE_INFINITY;
            for (const c of candidates) {
                const conf = fieldConfidence(c.output.metadata, field);
                if (conf > best)
                    [best, chosen] = [conf, c];
            }
        }
        if (!chosen) {
            // Present nowhere: keep the shape the first output gave it (null or []).
            value[field] = sources.find((s) => field in s.output.value)?.output.value[field] ?? null;
            continue;
        }
        value[field] = chosen.output.value[field] ?? null;
        chosenFrom[field] = chosen.stepName;
        for (const [path, m] of Object.entries(chosen.output.metadata))
            if (belongs(path, field))
                metadata[path] = m;
    }
    return { value, metadata, sources: chosenFrom };
}
/**
 * The MERGE_EXTRACT executor. Output `{ value, metadata, mergedSteps, fieldSources }`:
 * `mergedSteps` names the merged steps in path order, `fieldSources` the step each field came from.
 */
export function mergeExtractStep() {
    return defineStep({
        type: 'MERGE_EXTRACT',
        requiresConfig: false,
        configSchema: {
            type: 'object',
            additionalProperties: false,
            properties: {
                mergeOrder: { enum: ['confidence', 'alphabetic', 'first_to_execute', 'last_to_execute'] },
            },
        },
        async execute(input, context) {
            context.signal.throwIfAborted();
            const sources = extractOutputsOf(input.outputs);
            if (sources.length === 0) {
                return {
                    failure: {
                        reason: 'INVALID_CONFIGURATION',
                        message: 'MERGE_EXTRACT found no extraction output on the path: place it after EXTRACT steps (and a COLLECT)',
                    },
                };
            }
            const merged = mergeExtractOutputs(sources, input.config?.mergeOrder ?? 'confidence');
            return {
                output: {
                    value: merged.value,
                    metadata: merged.metadata,
                    mergedSteps: [...new Set(sources.map((s) => s.stepName))],
                    fieldSources: merged.sources,
                },
                usage: { credits: 0 },
            };
        },
    });
}
//# sourceMappingURL=merge-extract-step.js.map