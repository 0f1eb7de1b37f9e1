import { decodeStream, lazyObjects } from './lazy-objects.js';
import { entry, isDict, isRef, isStream } from './pdf-object-parser.js';
const MAX_INHERIT = 64;
/**
 * Opens a document a second time, to reach the raw content streams pdf.js keeps in its worker
 * half: objects are parsed on demand ({@link lazyObjects}), and only trusted when they are what
 * pdf.js's reference says they are (a page, a stream). `undefined` for an encrypted or
 * unreadable document: its pages then take pdf.js's operator list.
 */
export function openPageContent(bytes) {
    const objects = lazyObjects(bytes);
    if (!objects || objects.encrypted)
        return undefined;
    const resolve = (value) => isRef(value) ? objects.lookup(value) : value;
    const forms = new Map();
    const xobjectOf = (value, parent) => {
        const object = resolve(value);
        if (object === undefined || object === null)
            return { kind: 'other' };
        if (!isStream(object))
            return undefined;
        const { dict } = object;
        const subtype = entry(dict, 'Subtype');
        if (subtype === 'Image') {
            const mask = resolve(entry(dict, 'ImageMask') ?? entry(dict, 'IM'));
            return {
                kind: 'image',
                width: resolve(entry(dict, 'Width') ?? entry(dict, 'W')),
                height: resolve(entry(dict, 'Height') ?? entry(dict, 'H')),
                imageMask: mask === true,
            };
        }
        if (subtype !== 'Form')
            return subtype === undefined ? undefined : { kind: 'other' };
        if (forms.has(object))
            return forms.get(object);
        forms.set(object, undefined);
        const content = decodeStream(object);
        const own = resolve(entry(dict, 'Resources'));
        const form = content && {
            kind: 'form',
            matrix: matrixOf(resolve(entry(dict, 'Matrix'))),
            content,
            // As pdf.js: a form without resources uses its parent's.
            resources: isDict(own) ? resourcesOf(own) : parent,
        };
        forms.set(object, form);
        return form;
    };
    const matrixOf = (value) => {
        if (!Array.isArray(value) || value.length !== 6)
            return null;
        const numbers = value.map(resolve);
        return numbers.every((n) => typeof n === 'number') ? numbers : null;
    };
    const resourcesOf = (dict) => {
        const xobjects = resolve(entry(dict, 'XObject'));
        const self = {
            xobject(key) {
                if (!isDict(xobjects))
                    return { kind: 'other' };
                return xobjectOf(xobjects.entries.get(key), self);
            },
        };
        return self;
    };
    const pageOf = (ref) => {
        if (!ref)
            return undefined;
        const page = objects.lookup({ kind: 'ref', num: ref.num, gen: ref.gen });
        if (!isDict(page) || entry(page, 'Type') !== 'Page')
            return undefined;
        const contents = resolve(entry(page, 'Contents'));
        const streams = Array.isArray(contents) ? contents.map(resolve) : [contents];
        const parts = [];
        for (const stream of streams) {
            if (stream === undefined || stream === null)
                continue;
            const part = isStream(stream) ? decodeStream(stream) : undefined;
            if (!part)
                return undefined;
            parts.push(part);
        }
        // Inherited through the page tree, as pdf.js reads /Resources.
        let node = page;
        let resources;
        for (let k = 0; k < MAX_INHERIT && isDict(node) && resources === undefined; k++) {
            resources = resolve(entry(node, 'Resources'));
            node = resolve(entry(node, 'Parent'));
        }
        return { content: join(parts), resources: resourcesOf(resources) };
    };
    return {
        page(ref) {
            try {
                return pageOf(ref);
            }
            catch {
                // An object that does not parse: pdf.js reads this page.
                return undefined;
            }
        },
    };
}
/** Content streams in sequence; a line break between them keeps tokens apart. */
function join(parts) {
    if (parts.length === 1)
        return parts[0];
    const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length + 1, 0));
    let at = 0;
    for (const part of parts) {
        out.set(part, at);
        at += part.length;
        out[at++] = 0x0a;
    }
    return out;
}
//# sourceMappingURL=page-content.js.map