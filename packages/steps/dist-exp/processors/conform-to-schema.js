/**
 * Makes a provider's answer conform to the extractor's JSON Schema, or says why it cannot. A
 * value is first shaped by the schema (types coerced, unknown keys dropped where the schema
 * forbids them, missing nullable fields set to null), then validated with ajv; each remaining
 * error is repaired by nulling or dropping the offending field where the schema allows it.
 * Whatever is returned as `ok` has passed ajv.
 */
import { Ajv } from 'ajv';
import { readSchema } from './schema-node.js';
import { matchEnum, parseBoolean, parseCurrency, parseCurrencyCode, parseDate, parseNumber, } from './value-coercion.js';
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const compiled = new Map();
/** The compiled validator of `schema`; throws with ajv's message when the schema is invalid. */
export function schemaValidator(schema) {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
        validate = ajv.compile(schema);
        if (compiled.size > 500)
            compiled.clear();
        compiled.set(key, validate);
    }
    return validate;
}
/** Checks that `schema` can be used by an extractor; returns the problems, empty when fine. */
export function checkExtractionSchema(schema) {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
        return ['schema: must be a JSON Schema object'];
    }
    const s = schema;
    const problems = [];
    const type = s.type;
    if (type !== 'object' && !(Array.isArray(type) && type.includes('object'))) {
        problems.push('schema.type: the root of an extraction schema must be "object"');
    }
    try {
        schemaValidator(s);
    }
    catch (error) {
        problems.push(`schema: ${error.message}`);
    }
    return problems;
}
function shape(value, node, path, repairs) {
    if (value === undefined || value === null) {
        if (node.kind === 'array')
            return node.nullable ? null : [];
        if ((node.kind === 'object' || node.kind === 'currency') && !node.nullable) {
            return shapeObject({}, node, path, repairs);
        }
        return null;
    }
    switch (node.kind) {
        case 'string':
            return typeof value === 'string'
                ? value
                : typeof value === 'object'
                    ? JSON.stringify(value)
                    : String(value);
        case 'date': {
            if (typeof value !== 'string')
                return null;
            const date = parseDate(value);
            if (date === undefined)
                repairs.push(`${path}: "${value}" is not a date; kept as text`);
            return date ?? value;
        }
        case 'number':
        case 'integer': {
            const n = typeof value === 'number'
                ? value
                : typeof value === 'string'
                    ? parseNumber(value)
                    : undefined;
            if (n === undefined) {
                repairs.push(`${path}: not a number; set to null`);
                return null;
            }
            return node.kind === 'integer' ? Math.round(n) : n;
        }
        case 'boolean': {
            if (typeof value === 'boolean')
                return value;
            const b = typeof value === 'string' ? parseBoolean(value) : undefined;
            return b ?? null;
        }
        case 'enum': {
            const values = node.enumValues ?? [];
            if (values.includes(value))
                return value;
            const m = typeof value === 'string' || typeof value === 'number'
                ? matchEnum(String(value), values)
                : undefined;
            if (m === undefined)
                repairs.push(`${path}: ${JSON.stringify(value)} is not one of the enum values; set to null`);
            return m ?? null;
        }
        case 'currency': {
            if (typeof value === 'number')
                return { amount: value, iso_4217: null };
            if (typeof value === 'string')
                return parseCurrency(value, parseCurrencyCode(value) ?? null) ?? null;
            if (typeof value === 'object' && !Array.isArray(value)) {
                const o = value;
                const amount = typeof o.amount === 'number'
                    ? o.amount
                    : typeof o.amount === 'string'
                        ? (parseNumber(o.amount) ?? null)
                        : null;
                const code = typeof o.iso_4217 === 'string'
                    ? o.iso_4217
                    : typeof o.currency === 'string'
                        ? o.currency
                        : null;
                return shapeObject({ amount, iso_4217: code }, node, path, repairs, true);
            }
            return null;
        }
        case 'object':
            if (typeof value !== 'object' || Array.isArray(value)) {
                repairs.push(`${path}: not an object; replaced`);
                return node.nullable ? null : shapeObject({}, node, path, repairs);
            }
            return shapeObject(value, node, path, repairs);
        case 'array': {
            if (!Array.isArray(value)) {
                repairs.push(`${path}: not an array; replaced by []`);
                return [];
            }
            const items = node.items;
            return value.map((item, i) => items ? shape(item, items, `${path}[${i}]`, repairs) : item);
        }
        default:
            return value;
    }
}
function shapeObject(value, node, path, repairs, keepUnknown = false) {
    const out = {};
    const props = node.properties ?? [];
    if (props.length === 0 && node.kind === 'currency') {
        return {
            amount: value.amount ?? null,
            iso_4217: value.iso_4217 ?? null,
        };
    }
    for (const prop of props) {
        out[prop.name] = shape(value[prop.name], prop.node, path ? `${path}.${prop.name}` : prop.name, repairs);
    }
    if (node.schema.additionalProperties !== false && !keepUnknown) {
        for (const [key, v] of Object.entries(value))
            if (!(key in out))
                out[key] = v;
    }
    return out;
}
function pathSegments(instancePath) {
    return instancePath
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
function schemaAt(root, segments) {
    let node = root;
    for (const seg of segments) {
        if (!node)
            return undefined;
        if (node.kind === 'array')
            node = node.items;
        else
            node = node.properties?.find((p) => p.name === seg)?.node;
    }
    return node;
}
function requiredIn(root, segments) {
    const parent = schemaAt(root, segments.slice(0, -1));
    const last = segments[segments.length - 1];
    return parent?.properties?.find((p) => p.name === last)?.required ?? false;
}
/** Nulls or drops the value at `segments`; false when neither is allowed. */
function repairAt(root, value, segments) {
    if (segments.length === 0)
        return false;
    let container = value;
    for (const seg of segments.slice(0, -1)) {
        container = container[seg];
        if (container === null || typeof container !== 'object')
            return false;
    }
    const last = segments[segments.length - 1] ?? '';
    const node = schemaAt(root, segments);
    const target = container;
    if (Array.isArray(target)) {
        target.splice(Number(last), 1);
        return true;
    }
    if (node?.nullable && target[last] !== null) {
        target[last] = null;
        return true;
    }
    if (!requiredIn(root, segments) && last in target) {
        delete target[last];
        return true;
    }
    return false;
}
/**
 * Shapes `value` by `schema`, validates it with ajv and repairs what it can. Never returns a value
 * that does not validate.
 */
export function conformToSchema(value, schema) {
    const validate = schemaValidator(schema);
    const root = readSchema(schema);
    const repairs = [];
    const shaped = shape(value ?? {}, root, '', repairs);
    if (shaped === null || typeof shaped !== 'object' || Array.isArray(shaped)) {
        return { ok: false, errors: ['(root): the answer is not an object'] };
    }
    // `shape` built fresh containers, so repairs can edit them in place.
    const current = shaped;
    for (let attempt = 0; attempt < 50; attempt++) {
        if (validate(current)) {
            return { ok: true, value: current, repairs };
        }
        const errors = validate.errors ?? [];
        let repaired = false;
        for (const error of errors) {
            let segments = pathSegments(error.instancePath);
            if (error.keyword === 'additionalProperties') {
                const extra = error.params.additionalProperty;
                if (extra !== undefined)
                    segments = [...segments, extra];
            }
            // Repair at the error, else at the nearest enclosing field or array item that allows it.
            for (let depth = segments.length; depth > 0 && !repaired; depth--) {
                const at = segments.slice(0, depth);
                if (repairAt(root, current, at)) {
                    repairs.push(`${at.join('.')}: ${error.message ?? 'invalid'}; repaired`);
                    repaired = true;
                }
            }
            if (repaired)
                break;
        }
        if (!repaired) {
            return {
                ok: false,
                errors: errors.map((e) => `${e.instancePath || '(root)'}: ${e.message ?? 'invalid'}`),
            };
        }
    }
    return { ok: false, errors: ['(root): too many repairs needed'] };
}
//# sourceMappingURL=conform-to-schema.js.map