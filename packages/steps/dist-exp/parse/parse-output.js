/**
 * The shapes of the parse configuration and output (ParseConfig, ParseRunOutput, Chunk,
 * Block, block details, output metadata). Names follow the interface exactly; other packages read
 * these types, so changes here are additive only.
 */
export {};
//# sourceMappingURL=parse-output.js.map