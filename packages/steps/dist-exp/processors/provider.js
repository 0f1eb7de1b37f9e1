/**
 * Thrown by a provider whose answer cannot be used at all (not JSON, not an object): the
 * processor fails with POST_PROCESSING_FAILURE instead of INTERNAL_ERROR.
 */
export class ProviderAnswerError extends Error {
    name = 'ProviderAnswerError';
}
//# sourceMappingURL=provider.js.map