import type { DraftDocument } from './draft-document.ts';
import type { Chunk } from './parse-output.ts';
import type { ResolvedParseConfig } from './resolve-parse-config.ts';
/**
 * Turns a parser's draft into the interface chunks for the configured strategy and target, assigning
 * block ids in reading order (`blk_1`, `blk_2`, …; a table's cells follow the table).
 */
export declare function buildChunks(draft: DraftDocument, config: ResolvedParseConfig): Chunk[];
//# sourceMappingURL=build-chunks.d.ts.map