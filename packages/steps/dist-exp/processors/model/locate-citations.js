/**
 * Citations for values a model returned without them: each leaf value is looked up in the
 * document's lines (text by substring, numbers and dates by their parsed value) and cited where
 * it is first found.
 */
import { parseDate, parseNumber } from '../value-coercion.js';
function numbersIn(text) {
    const out = [];
    for (const m of text.matchAll(/[-−(]?[$€£¥₹]?\s?\d[\d.,']*\d?\)?/g)) {
        const n = parseNumber(m[0]);
        if (n !== undefined)
            out.push(Math.abs(n));
    }
    return out;
}
function find(lines, value) {
    if (typeof value === 'string') {
        const v = value.trim().toLowerCase();
        if (v === '')
            return undefined;
        const date = /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined;
        return lines.find((l) => l.text.toLowerCase().includes(v) || (date !== undefined && parseDate(l.text) === date));
    }
    if (typeof value === 'number') {
        const target = Math.abs(value);
        return lines.find((l) => numbersIn(l.text).some((n) => Math.abs(n - target) < 0.005));
    }
    return undefined;
}
/** Metadata with citations for every leaf of `value` found in the document. */
export function locateCitations(view, value) {
    const lines = view.pages.flatMap((p) => p.lines);
    const metadata = {};
    const visit = (v, path) => {
        if (v === null)
            return;
        if (Array.isArray(v)) {
            v.forEach((item, i) => {
                visit(item, `${path}[${i}]`);
            });
            return;
        }
        if (typeof v === 'object') {
            const o = v;
            if ('amount' in o && 'iso_4217' in o) {
                visit(o.amount ?? null, path);
                return;
            }
            for (const [key, child] of Object.entries(o))
                visit(child, path ? `${path}.${key}` : key);
            return;
        }
        const line = find(lines, v);
        metadata[path] = {
            ocrConfidence: line?.ocrConfidence ?? null,
            logprobsConfidence: null,
            confidence: null,
            citations: line
                ? [
                    {
                        ...(line.fileId === undefined ? {} : { fileId: line.fileId }),
                        page: { number: line.page, width: line.pageWidth, height: line.pageHeight },
                        referenceText: line.text,
                        polygon: line.polygon,
                    },
                ]
                : [],
        };
    };
    visit(value, '');
    return metadata;
}
//# sourceMappingURL=locate-citations.js.map