/** True when `value` looks like an extraction output. */
export function isExtractOutput(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return false;
    const v = value;
    return (typeof v.value === 'object' &&
        v.value !== null &&
        !Array.isArray(v.value) &&
        typeof v.metadata === 'object' &&
        v.metadata !== null);
}
/** Every extraction output on the path, in path order (arrays in arrival order). */
export function extractOutputsOf(outputs) {
    const found = [];
    for (const [stepName, value] of Object.entries(outputs)) {
        const list = Array.isArray(value) ? value : [value];
        for (const item of list)
            if (isExtractOutput(item))
                found.push({ stepName, output: item });
    }
    return found;
}
function scopeValue(value) {
    if (Array.isArray(value))
        return value.map(scopeValue);
    if (typeof value !== 'object' || value === null)
        return value;
    const v = value;
    if (isExtractOutput(v))
        return v.value;
    if (typeof v.id === 'string' && typeof v.type === 'string' && typeof v.confidence === 'number')
        return v.type;
    if (typeof v.status === 'number' && 'data' in v)
        return v.data;
    if (typeof v.response === 'object' && v.response !== null && 'data' in v.response) {
        return v.response.data;
    }
    return v;
}
/** The formula scope of a step: step names to their values, and `metadata`. */
export function formulaScope(input) {
    const scope = {};
    for (const [stepName, value] of Object.entries(input.outputs))
        scope[stepName] = scopeValue(value);
    scope.metadata = input.metadata;
    return scope;
}
//# sourceMappingURL=step-outputs.js.map