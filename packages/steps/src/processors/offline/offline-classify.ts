/**
 * Offline classification: the document's terms against each classification's weighted terms
 * (see term-model.ts); the `other` classification when the best is not confident enough.
 */

import type { ClassificationConfig } from '../processor-config.ts';
import type { ClassifyOutput } from '../provider.ts';
import type { DocumentPage, DocumentView } from '../view/document-view.ts';
import {
  buildTermProfiles,
  isOtherType,
  layoutTerms,
  OPENING_SHARE,
  type Ranking,
  rank,
  type TermProfile,
  termCounts,
} from './term-model.ts';

/** Below this confidence the `other` classification is chosen (when there is one). */
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.35;

type ClassifyConfig = Pick<
  ClassificationConfig,
  'classifications' | 'classificationRules' | 'confidenceThreshold'
>;

/**
 * Ranks the classifications (their term profiles, built once per configuration) for the lines of
 * a document (or of some of its pages). `opening`, the lines of its first page with text when it
 * has more than one page, must carry a good part of the answer's evidence (see term-model.ts,
 * OPENING_SHARE).
 */
export function rankLines(
  lines: readonly string[],
  profiles: readonly TermProfile[],
  layout: readonly string[] = [],
  opening?: readonly string[],
): Ranking {
  return rank(
    profiles,
    termCounts(lines, 6, layout),
    opening === undefined ? undefined : termCounts(opening, 6, layout),
  );
}

/** Classifies the lines of a document (or of some of its pages); see rankLines. */
export function classifyLines(
  lines: readonly string[],
  config: ClassifyConfig,
  layout: readonly string[] = [],
  opening?: readonly string[],
): ClassifyOutput {
  const profiles = buildTermProfiles(config.classifications, config.classificationRules);
  return classifyRanking(rankLines(lines, profiles, layout, opening), lines, config);
}

/** The answer a ranking gives: its best classification, or `other` when it is not sure enough. */
export function classifyRanking(
  ranking: Ranking,
  lines: readonly string[],
  config: ClassifyConfig,
): ClassifyOutput {
  const other = config.classifications.find((c) => isOtherType(c.type));
  const threshold = config.confidenceThreshold ?? DEFAULT_CONFIDENCE_THRESHOLD;
  const sorted = [...ranking.scores.entries()].sort((a, b) => b[1] - a[1]);
  const runnerUp = sorted[1];
  const runnerUpType = config.classifications.find((c) => c.id === runnerUp?.[0])?.type;
  const best = ranking.best?.classification;
  const evidence =
    best === undefined
      ? 'No classification matched any term of the document.'
      : `Best match ${best.type} (score ${ranking.bestScore.toFixed(2)}; terms: ${ranking.terms.join(', ') || 'none'})` +
        (runnerUp && runnerUpType
          ? `; runner-up ${runnerUpType} (score ${runnerUp[1].toFixed(2)}).`
          : '.');
  if (!best || (other && ranking.confidence < threshold)) {
    const fallback = other ?? config.classifications[0];
    if (!fallback) throw new Error('classifications: at least one classification is required');
    const hasText = lines.some((l) => l.trim() !== '');
    // Confidence in "other" is what is left after the best real candidate; a document without
    // text says nothing at all. The insight states the same figure first.
    const confidence = hasText ? Math.round((1 - ranking.confidence) * 1000) / 1000 : 0;
    const why =
      best === undefined
        ? evidence
        : `${evidence}${ranking.opening < 1 ? ` Its first page carries ${Math.round(ranking.opening * OPENING_SHARE * 100)}% of that evidence (${OPENING_SHARE * 100}% is wanted).` : ''} Its confidence ${ranking.confidence.toFixed(2)} is below the ${threshold} threshold.`;
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

/**
 * A page's lines as classification reads them. A sheet's first line is its name, the workbook's
 * tab label, which whoever made the template chose ("Invoice data" over a till receipt): it is
 * left out, so it cannot stand as the document's title.
 */
export function pageLines(page: DocumentPage): string[] {
  return page.lines.slice(page.sheetIndex === undefined ? 0 : 1).map((l) => l.text);
}

/** The lines of the first page with text, when pages after it have text too. */
export function openingLines(pages: readonly DocumentPage[]): string[] | undefined {
  const withText = pages.filter((p) => p.lines.some((l) => l.text.trim() !== ''));
  if (withText.length < 2) return undefined;
  return pageLines(withText[0] as DocumentPage);
}

/** Classifies a document view. */
export function offlineClassify(doc: DocumentView, config: ClassificationConfig): ClassifyOutput {
  return classifyLines(
    doc.pages.flatMap(pageLines),
    config,
    layoutTerms(doc.pages),
    openingLines(doc.pages),
  );
}
