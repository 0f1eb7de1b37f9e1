function types(schema) {
    const t = schema.type;
    if (typeof t === 'string')
        return [t];
    if (Array.isArray(t))
        return t.filter((x) => typeof x === 'string');
    return [];
}
function customType(schema) {
    for (const [key, value] of Object.entries(schema)) {
        if (key.endsWith(':type') && typeof value === 'string')
            return value;
    }
    return undefined;
}
function customDescriptions(schema) {
    for (const [key, value] of Object.entries(schema)) {
        if (key.endsWith(':descriptions') && Array.isArray(value)) {
            return value.map((v) => (typeof v === 'string' ? v : ''));
        }
    }
    return undefined;
}
function isCurrencyShape(schema) {
    const props = schema.properties;
    if (!props || typeof props !== 'object')
        return false;
    return 'amount' in props && ('iso_4217' in props || 'currency' in props);
}
/** Reads a JSON Schema into a {@link SchemaNode} tree. */
export function readSchema(schema, name = '') {
    const t = types(schema);
    const enumList = Array.isArray(schema.enum) ? schema.enum : undefined;
    const nullable = t.includes('null') || (enumList?.includes(null) ?? false);
    const custom = customType(schema);
    const base = {
        nullable,
        schema,
        ...(typeof schema.title === 'string' ? { title: schema.title } : {}),
        ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    };
    if (enumList) {
        const enumValues = enumList.filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
        const enumDescriptions = customDescriptions(schema);
        return { ...base, kind: 'enum', enumValues, ...(enumDescriptions ? { enumDescriptions } : {}) };
    }
    if (custom === 'currency' || (t.includes('object') && isCurrencyShape(schema))) {
        return { ...base, kind: 'currency' };
    }
    if (t.includes('object') || (t.length === 0 && schema.properties)) {
        const props = (schema.properties ?? {});
        const required = new Set(Array.isArray(schema.required) ? schema.required : []);
        return {
            ...base,
            kind: 'object',
            properties: Object.entries(props).map(([key, child]) => ({
                name: key,
                required: required.has(key),
                node: readSchema(child, key),
            })),
        };
    }
    if (t.includes('array')) {
        const items = schema.items && typeof schema.items === 'object' ? schema.items : {};
        return { ...base, kind: 'array', items: readSchema(items, name) };
    }
    if (t.includes('string')) {
        const isDate = custom === 'date' ||
            schema.format === 'date' ||
            schema.format === 'date-time' ||
            /(^|_|\b)date$/i.test(name);
        return { ...base, kind: isDate ? 'date' : 'string' };
    }
    if (t.includes('integer'))
        return { ...base, kind: 'integer' };
    if (t.includes('number'))
        return { ...base, kind: 'number' };
    if (t.includes('boolean'))
        return { ...base, kind: 'boolean' };
    return { ...base, kind: 'unknown' };
}
//# sourceMappingURL=schema-node.js.map