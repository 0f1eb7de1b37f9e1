/** Bytes that do not parse as a PDF object. */
export class MalformedObject extends Error {
    name = 'MalformedObject';
}
const SPECIAL = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])
    SPECIAL[c] = 1;
for (const c of '()<>[]{}/%')
    SPECIAL[c.charCodeAt(0)] = 2;
const latin1 = new TextDecoder('latin1');
const ENDSTREAM = Uint8Array.from('endstream', (c) => c.charCodeAt(0));
/**
 * Parses the object at `offset` of `bytes` (a dictionary may be followed by its stream, whose
 * `/Length` may be a reference `resolve` reads). Plain data, built only for the objects looked up:
 * pdf-lib's parser builds a class instance per name and number, and parses every object first.
 */
export function parseObjectAt(bytes, offset, resolve = () => undefined) {
    let i = offset;
    const length = bytes.length;
    const skipSpace = () => {
        while (i < length) {
            const c = bytes[i];
            if (SPECIAL[c] === 1)
                i++;
            else if (c === 0x25)
                while (i < length && bytes[i] !== 0x0a && bytes[i] !== 0x0d)
                    i++;
            else
                break;
        }
    };
    const integerAhead = () => {
        let j = i;
        let value = 0;
        while (j < length && bytes[j] >= 0x30 && bytes[j] <= 0x39) {
            value = value * 10 + (bytes[j] - 0x30);
            j++;
        }
        if (j === i || (j < length && SPECIAL[bytes[j]] === 0))
            return undefined;
        i = j;
        return value;
    };
    const value = () => {
        skipSpace();
        if (i >= length)
            throw new MalformedObject('end of data');
        const c = bytes[i];
        if (c === 0x2f) {
            const start = ++i;
            while (i < length && SPECIAL[bytes[i]] === 0)
                i++;
            const raw = latin1.decode(bytes.subarray(start, i));
            return raw.includes('#')
                ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)))
                : raw;
        }
        if (c === 0x3c && bytes[i + 1] === 0x3c) {
            i += 2;
            const entries = new Map();
            for (;;) {
                skipSpace();
                if (bytes[i] === 0x3e && bytes[i + 1] === 0x3e) {
                    i += 2;
                    break;
                }
                const key = value();
                if (typeof key !== 'string')
                    throw new MalformedObject('dictionary key');
                entries.set(key, value());
            }
            const dict = { kind: 'dict', entries };
            return streamAfter(dict) ?? dict;
        }
        if (c === 0x3c) {
            const end = bytes.indexOf(0x3e, i);
            if (end < 0)
                throw new MalformedObject('hex string');
            i = end + 1;
            return { kind: 'string' };
        }
        if (c === 0x28) {
            let depth = 1;
            i++;
            while (i < length && depth > 0) {
                const d = bytes[i];
                if (d === 0x5c)
                    i++;
                else if (d === 0x28)
                    depth++;
                else if (d === 0x29)
                    depth--;
                i++;
            }
            if (depth > 0)
                throw new MalformedObject('string');
            return { kind: 'string' };
        }
        if (c === 0x5b) {
            i++;
            const items = [];
            for (;;) {
                skipSpace();
                if (bytes[i] === 0x5d) {
                    i++;
                    return items;
                }
                items.push(value());
            }
        }
        if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
            // `n g R` is a reference; anything else a number.
            const start = i;
            const num = integerAhead();
            if (num !== undefined) {
                const afterNum = i;
                skipSpace();
                const gen = integerAhead();
                if (gen !== undefined) {
                    skipSpace();
                    if (bytes[i] === 0x52 && (i + 1 >= length || SPECIAL[bytes[i + 1]] !== 0)) {
                        i++;
                        return { kind: 'ref', num, gen };
                    }
                }
                i = afterNum;
                return num;
            }
            i = start;
            let j = i;
            while (j < length && SPECIAL[bytes[j]] === 0)
                j++;
            const number = Number(latin1.decode(bytes.subarray(i, j)));
            if (Number.isNaN(number))
                throw new MalformedObject('number');
            i = j;
            return number;
        }
        let j = i;
        while (j < length && SPECIAL[bytes[j]] === 0)
            j++;
        const word = latin1.decode(bytes.subarray(i, j));
        i = j;
        if (word === 'true')
            return true;
        if (word === 'false')
            return false;
        if (word === 'null')
            return null;
        throw new MalformedObject(`unexpected ${word.slice(0, 20)}`);
    };
    const streamAfter = (dict) => {
        const mark = i;
        skipSpace();
        if (latin1.decode(bytes.subarray(i, i + 6)) !== 'stream') {
            i = mark;
            return undefined;
        }
        i += 6;
        if (bytes[i] === 0x0d)
            i++;
        if (bytes[i] === 0x0a)
            i++;
        const start = i;
        let declared = dict.entries.get('Length');
        if (declared && typeof declared === 'object' && 'kind' in declared && declared.kind === 'ref') {
            declared = resolve(declared);
        }
        let end = -1;
        if (typeof declared === 'number' && start + declared <= length) {
            const after = latin1.decode(bytes.subarray(start + declared, start + declared + 12));
            if (/^\s*endstream/.test(after))
                end = start + declared;
        }
        if (end < 0) {
            // A wrong or unreadable /Length: the data runs to the next `endstream`, less its EOL.
            const at = indexOf(bytes, ENDSTREAM, start);
            if (at < 0)
                throw new MalformedObject('stream end');
            end = at;
            if (bytes[end - 1] === 0x0a)
                end--;
            if (bytes[end - 1] === 0x0d)
                end--;
        }
        i = end;
        return { kind: 'stream', dict, raw: bytes.subarray(start, end) };
    };
    return value();
}
function indexOf(bytes, pattern, from) {
    const first = pattern[0];
    for (let at = bytes.indexOf(first, from); at >= 0; at = bytes.indexOf(first, at + 1)) {
        let k = 1;
        while (k < pattern.length && bytes[at + k] === pattern[k])
            k++;
        if (k === pattern.length)
            return at;
    }
    return -1;
}
/** A dictionary's entry, or `undefined`. */
export function entry(dict, key) {
    return isDict(dict) ? dict.entries.get(key) : undefined;
}
/** True for a dictionary. */
export function isDict(value) {
    return typeof value === 'object' && value !== null && 'kind' in value && value.kind === 'dict';
}
/** True for a stream. */
export function isStream(value) {
    return typeof value === 'object' && value !== null && 'kind' in value && value.kind === 'stream';
}
/** True for a reference. */
export function isRef(value) {
    return typeof value === 'object' && value !== null && 'kind' in value && value.kind === 'ref';
}
//# sourceMappingURL=pdf-object-parser.js.map