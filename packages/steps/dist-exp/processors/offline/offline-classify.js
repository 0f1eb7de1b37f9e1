/**
 * Offline classification: the document's terms against each classification's weighted terms
 * (see term-model.ts); the `other` classification when the best is not confident enough.
 */
import { buildTermProfiles, isOtherType, layoutTerms, rank, termCounts } from './term-model.js';
/** Below this confidence the `other` classification is chosen (when there is one). */
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.35;
/** Classifies the lines of a document (or of some of its pages). */
export function classifyLines(lines, config, layout = []) {
    const profiles = buildTermProfiles(config.classifications, config.classificationRules);
    const ranking = rank(profiles, termCounts(lines, 6, layout));
    const other = config.classifications.find((c) => isOtherType(c.type));
    const threshold = config.confidenceThreshold ?? DEFAULT_CONFIDENCE_THRESHOLD;
    const sorted = [...ranking.scores.entries()].sort((a, b) => b[1] - a[1]);
    const runnerUp = sorted[1];
    const runnerUpType = config.classifications.find((c) => c.id === runnerUp?.[0])?.type;
    const best = ranking.best?.classification;
    const evidence = best === undefined
        ? 'No classification matched any term of the document.'
        : `Best match ${best.type} (score ${ranking.bestScore.toFixed(2)}; terms: ${ranking.terms.join(', ') || 'none'})` +
            (runnerUp && runnerUpType
                ? `; runner-up ${runnerUpType} (score ${runnerUp[1].toFixed(2)}).`
                : '.');
    if (!best || (other && ranking.confidence < threshold)) {
        const fallback = other ?? config.classifications[0];
        if (!fallback)
            throw new Error('classifications: at least one classification is required');
        const hasText = lines.some((l) => l.trim() !== '');
        // Confidence in "other" is what is left after the best real candidate; a document without
        // text says nothing at all. The insight states the same figure first.
        const confidence = hasText ? Math.round((1 - ranking.confidence) * 1000) / 1000 : 0;
        const why = best === undefined
            ? evidence
            : `${evidence} Its confidence ${ranking.confidence.toFixed(2)} is below the ${threshold} threshold.`;
        return {
            id: fallback.id,
            type: fallback.type,
            confidence,
            insights: [
                {
                    type: 'reasoning',
                    content: `Classified as ${fallback.type} with confidence ${confidence.toFixed(2)}. ${why}`,
                },
            ],
        };
    }
    return {
        id: best.id,
        type: best.type,
        confidence: ranking.confidence,
        insights: [{ type: 'reasoning', content: evidence }],
    };
}
/** Classifies a document view. */
export function offlineClassify(doc, config) {
    return classifyLines(doc.pages.flatMap((p) => p.lines.map((l) => l.text)), config, layoutTerms(doc.pages));
}
//# sourceMappingURL=offline-classify.js.map