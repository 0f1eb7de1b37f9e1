/** Returns the inline config, or resolves the reference. */
export async function resolveStepProcessor(kind, inline, reference, resolve, signal) {
    if (inline)
        return inline;
    if (!reference) {
        return {
            failure: {
                reason: 'INVALID_CONFIGURATION',
                message: `The step names no ${kind.toLowerCase()} processor and no inline config`,
            },
        };
    }
    if (!resolve) {
        return {
            failure: {
                reason: 'INVALID_PROCESSOR',
                message: `Processor ${reference.id} version ${reference.version} cannot be resolved: no resolveProcessor was given to the step executors`,
            },
        };
    }
    let config;
    try {
        config = await resolve(kind, reference);
        signal.throwIfAborted();
    }
    catch (error) {
        if (signal.aborted)
            throw signal.reason ?? error;
        return {
            failure: {
                reason: 'INVALID_PROCESSOR',
                message: `Processor ${reference.id} version ${reference.version}: ${error.message ?? String(error)}`,
            },
        };
    }
    const required = REQUIRED_FIELD[kind];
    const value = config?.[required];
    const ok = required === 'schema' ? typeof value === 'object' && value !== null : Array.isArray(value);
    if (!ok) {
        return {
            failure: {
                reason: 'INVALID_PROCESSOR',
                message: `Processor ${reference.id} version ${reference.version} has no ${required} in its config`,
            },
        };
    }
    return config;
}
const REQUIRED_FIELD = {
    EXTRACT: 'schema',
    CLASSIFY: 'classifications',
    SPLITTER: 'splitClassifications',
};
/** True when `value` is a failure. */
export function isFailure(value) {
    return typeof value === 'object' && value !== null && 'failure' in value;
}
//# sourceMappingURL=resolve-step-processor.js.map