/**
 * The weighted term model of the offline classifier and splitter. Each classification gets a
 * bag of weighted terms from its type (heaviest), its description, the rules that mention it and
 * a small built-in vocabulary for common business document types; terms shared by several
 * classifications are discounted. A text scores against a classification by the weighted,
 * log-damped frequency of its terms, with the title zone (the first lines) counting triple.
 */
import type { Classification } from '../processor-config.ts';
/** One classification's weighted terms. */
export interface TermProfile {
    readonly classification: Classification;
    readonly weights: ReadonlyMap<string, number>;
    readonly norm: number;
    readonly isOther: boolean;
}
/** True for the fallback classification. */
export declare function isOtherType(type: string): boolean;
/** Builds the term profiles of `classifications` (the `other` one included, unscored). */
export declare function buildTermProfiles(classifications: readonly Classification[], rules?: string): TermProfile[];
/**
 * Token counts of a text, with the title zone (first `titleLines` lines) counted three times,
 * plus shape terms and any `extra` terms (layout facts such as "@narrow-page").
 */
export declare function termCounts(lines: readonly string[], titleLines?: number, extra?: readonly string[]): Map<string, number>;
/** Layout facts of pages as terms: a page as narrow as till paper. */
export declare function layoutTerms(pages: readonly {
    readonly width: number;
}[]): string[];
/** A classification's score against term counts, with the terms that contributed most. */
export declare function scoreProfile(profile: TermProfile, counts: ReadonlyMap<string, number>): {
    score: number;
    terms: string[];
};
/** Scores and confidences of every classification for one text. */
export interface Ranking {
    readonly best: TermProfile | undefined;
    readonly bestScore: number;
    readonly confidence: number;
    readonly terms: readonly string[];
    readonly scores: ReadonlyMap<string, number>;
}
/**
 * Ranks the scored classifications. Confidence combines the margin over the runner-up (a
 * softmax share) with how much evidence there is at all (saturating in the score), so a text that
 * matches nothing well never looks certain.
 */
export declare function rank(profiles: readonly TermProfile[], counts: ReadonlyMap<string, number>): Ranking;
//# sourceMappingURL=term-model.d.ts.map