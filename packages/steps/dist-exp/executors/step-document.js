import { parseDocument } from '../parse/parse-document.js';
import { slicePages } from '../processors/page-selection.js';
import { buildDocumentView } from '../processors/view/build-view.js';
function isParseOutput(value) {
    return (typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Array.isArray(value.chunks));
}
/** The parse output(s) inside a step output: itself, `output`, `parseRun.output`, or `files`. */
function parseOutputsOf(value) {
    if (typeof value !== 'object' || value === null)
        return undefined;
    const v = value;
    if (isParseOutput(value)) {
        if (Array.isArray(v.files)) {
            const files = v.files.flatMap((f) => {
                const entry = f;
                return typeof entry.fileId === 'string' && isParseOutput(entry.output)
                    ? [{ fileId: entry.fileId, output: entry.output }]
                    : [];
            });
            if (files.length > 0)
                return files;
        }
        return [{ output: value }];
    }
    if (isParseOutput(v.output))
        return [{ output: v.output }];
    if (isParseOutput(v.parseRun?.output))
        return [{ output: v.parseRun.output }];
    return undefined;
}
/** The nearest parse output on the path (outputs are in path order, so the last one). */
export function findParseOutputs(outputs) {
    const values = Object.values(outputs);
    for (let i = values.length - 1; i >= 0; i--) {
        const value = values[i];
        const candidates = Array.isArray(value) ? [...value].reverse() : [value];
        for (const candidate of candidates) {
            const found = parseOutputsOf(candidate);
            if (found)
                return found;
        }
    }
    return undefined;
}
const defaultParse = async (bytes, file, { signal, config }) => {
    const result = await parseDocument(bytes, {
        fileName: file.name,
        signal,
        ...(config ? { config } : {}),
    });
    return result.ok
        ? { ok: true, output: result.output }
        : { ok: false, reason: result.failureReason, message: result.failureMessage };
};
function maxPage(output) {
    let max = 0;
    for (const chunk of output.chunks)
        max = Math.max(max, chunk.metadata.pageRange.end);
    return max;
}
/**
 * Loads the document of a processor step. A split child's file carries `parentSplit`; when the
 * path's parse output is the parent's (it has pages outside the split), only the split's pages
 * are kept, renumbered from 1 and attributed to the child file.
 */
export async function loadStepDocument(input, context, options = {}) {
    const files = input.files;
    let parsed = findParseOutputs(input.outputs);
    if (parsed) {
        // Attribute parse outputs to files: by id when the PARSE step named them, else by position.
        parsed = parsed.map((p, i) => {
            const file = files[i];
            return p.fileId === undefined && file ? { ...p, fileId: file.id } : p;
        });
    }
    else {
        if (files.length === 0) {
            return {
                failure: { reason: 'FAILED_TO_PROCESS_FILE', message: 'The step received no file' },
            };
        }
        parsed = [];
        const parse = options.parse ?? defaultParse;
        for (const file of files) {
            const bytes = await context.files.read(file.id, { signal: context.signal });
            const result = await parse(bytes, file, {
                signal: context.signal,
                ...(options.parseConfig ? { config: options.parseConfig } : {}),
            });
            if (!result.ok) {
                const prefix = files.length > 1 ? `${file.name}: ` : '';
                return {
                    failure: {
                        reason: 'PARSING_ERROR',
                        message: `${prefix}${result.reason}: ${result.message}`,
                    },
                };
            }
            parsed.push({ output: result.output, fileId: file.id });
        }
    }
    let view = buildDocumentView(parsed);
    const only = files.length === 1 ? files[0] : undefined;
    const split = only?.metadata.parentSplit;
    const single = parsed.length === 1 ? parsed[0] : undefined;
    if (only && split && single) {
        // The parent's parse output has pages outside the split; a re-parsed child starts at 1.
        const last = maxPage(single.output);
        if (last >= split.endPage && (split.startPage > 1 || last > split.endPage)) {
            view = slicePages(view, split.startPage, split.endPage, only.id);
        }
    }
    return { view, pages: view.pages.length };
}
//# sourceMappingURL=step-document.js.map