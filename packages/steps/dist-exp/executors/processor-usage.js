/** Maps a provider's usage to a step's usage. */
export function stepUsage(usage, creditsPerPage = 1) {
    return {
        credits: usage.pages * creditsPerPage,
        pages: usage.pages,
        ...(usage.inputTokens === undefined ? {} : { inputTokens: usage.inputTokens }),
        ...(usage.outputTokens === undefined ? {} : { outputTokens: usage.outputTokens }),
    };
}
//# sourceMappingURL=processor-usage.js.map