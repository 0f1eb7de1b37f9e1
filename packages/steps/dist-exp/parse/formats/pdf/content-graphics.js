import { multiply } from './geometry.js';
import { PDF_OPS } from './page-graphics.js';
/**
 * Why a page is left to pdf.js's operator list: what this reader does not model exactly
 * (inline images, operand recovery on malformed operators, pdf.js's batching of repeated images,
 * single-pixel image masks, deep or recursive forms).
 */
export class UnsupportedContent extends Error {
    name = 'UnsupportedContent';
}
/** Path construction and XObject operators, numbered out of pdf.js's range (never sent on). */
const OP = {
    move: 1001,
    line: 1002,
    curve: 1003,
    curve2: 1004,
    curve3: 1005,
    close: 1006,
    rect: 1007,
    xobject: 1008,
    inlineImage: 1009,
};
/** Operators: pdf.js operator id (or -1 when only the arity matters) and operand count. */
const OPERATORS = {
    w: [-1, 1],
    J: [-1, 1],
    j: [-1, 1],
    M: [-1, 1],
    d: [-1, 2],
    ri: [-1, 1],
    i: [-1, 1],
    gs: [-1, 1],
    q: [PDF_OPS.save, 0],
    Q: [PDF_OPS.restore, 0],
    cm: [PDF_OPS.transform, 6],
    m: [OP.move, 2],
    l: [OP.line, 2],
    c: [OP.curve, 6],
    v: [OP.curve2, 4],
    y: [OP.curve3, 4],
    h: [OP.close, 0],
    re: [OP.rect, 4],
    S: [PDF_OPS.stroke, 0],
    s: [PDF_OPS.closeStroke, 0],
    f: [PDF_OPS.fill, 0],
    F: [PDF_OPS.fill, 0],
    'f*': [PDF_OPS.eoFill, 0],
    B: [PDF_OPS.fillStroke, 0],
    'B*': [PDF_OPS.eoFillStroke, 0],
    b: [PDF_OPS.closeFillStroke, 0],
    'b*': [PDF_OPS.closeEOFillStroke, 0],
    n: [PDF_OPS.endPath, 0],
    W: [-1, 0],
    'W*': [-1, 0],
    BT: [-1, 0],
    ET: [-1, 0],
    Tc: [-1, 1],
    Tw: [-1, 1],
    Tz: [-1, 1],
    TL: [-1, 1],
    Tf: [-1, 2],
    Tr: [-1, 1],
    Ts: [-1, 1],
    Td: [-1, 2],
    TD: [-1, 2],
    Tm: [-1, 6],
    'T*': [-1, 0],
    Tj: [-1, 1],
    TJ: [-1, 1],
    "'": [-1, 1],
    '"': [-1, 3],
    d0: [-1, 2],
    d1: [-1, 6],
    CS: [-1, 1],
    cs: [-1, 1],
    SC: [-1, 4, true],
    SCN: [-1, 33, true],
    sc: [-1, 4, true],
    scn: [-1, 33, true],
    G: [-1, 1],
    g: [-1, 1],
    RG: [-1, 3],
    rg: [-1, 3],
    K: [-1, 4],
    k: [-1, 4],
    sh: [-1, 1],
    BI: [OP.inlineImage, 0],
    ID: [OP.inlineImage, 0],
    EI: [OP.inlineImage, 1],
    Do: [OP.xobject, 1],
    MP: [-1, 1],
    DP: [-1, 2],
    BMC: [-1, 1],
    BDC: [-1, 2],
    EMC: [-1, 0],
    BX: [-1, 0],
    EX: [-1, 0],
};
/**
 * Command names the pdf.js lexer knows, prefixes included: it stops a command as soon as the
 * next character would turn a known name into an unknown one (`fQ` is `f` then `Q`).
 */
const KNOWN_NAMES = [
    ...Object.keys(OPERATORS),
    'BM',
    'BD',
    'true',
    'fa',
    'fal',
    'fals',
    'false',
    'nu',
    'nul',
    'null',
];
/** A command name as a number (its characters in base 256): no string per operator read. */
function keyOf(name) {
    let key = 0;
    for (let k = name.length - 1; k >= 0; k--)
        key = key * 256 + name.charCodeAt(k);
    return key;
}
/** Longest command name that can be known (`false`). */
const MAX_COMMAND = 5;
const KNOWN = new Set(KNOWN_NAMES.map(keyOf));
const BY_KEY = new Map(Object.entries(OPERATORS).map(([name, spec]) => [keyOf(name), spec]));
const TRUE = keyOf('true');
const FALSE = keyOf('false');
const NULL = keyOf('null');
/** Operators pdf.js accepts with at most this many operands. */
const MAX_OPERANDS = 33;
/** Forms nested deeper than this are left to pdf.js (it also rejects recursive forms). */
const MAX_FORM_DEPTH = 8;
/** pdf.js folds three or more image paints in a row into one `paintImageXObjectRepeat`. */
const MAX_IMAGES = 2;
const SPECIAL = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])
    SPECIAL[c] = 1; // whitespace
for (const c of '()<>[]{}/%')
    SPECIAL[c.charCodeAt(0)] = 2; // delimiters
const NUMBER = 0;
const NAME = 1;
const OTHER = 2;
/**
 * Reads the painted paths and image placements of a decoded page content stream into `sink`,
 * following `q`/`Q`, `cm` and form XObjects as pdf.js's operator list would present them, without
 * the operator list's cost (it evaluates every glyph and structured-clones its arguments between
 * pdf.js's two halves). Coordinates are rounded to float32 like pdf.js's path buffers.
 * Throws {@link UnsupportedContent} where it cannot promise pdf.js's result; the caller then asks
 * pdf.js for the operator list of that page.
 */
export function readContentGraphics(content, resources, sink, maxOps = 500_000) {
    run(content, resources, sink, [1, 0, 0, 1, 0, 0], 0, { ops: maxOps, images: 0 });
}
function unsupported(why) {
    throw new UnsupportedContent(why);
}
function run(bytes, resources, sink, initial, depth, limits) {
    const length = bytes.length;
    const values = new Float64Array(MAX_OPERANDS + 1);
    const kinds = new Uint8Array(MAX_OPERANDS + 1);
    // The last name operand, decoded only when an operator needs it (Do).
    let nameStart = 0;
    let nameEnd = 0;
    let nameEscaped = false;
    let argc = 0;
    const stack = [];
    let ctm = initial;
    let path = [];
    let currentX = 0;
    let currentY = 0;
    const push = (kind, value) => {
        if (argc === MAX_OPERANDS)
            unsupported('too many operands');
        kinds[argc] = kind;
        values[argc] = value;
        argc++;
    };
    const numbers = (count) => {
        if (argc !== count)
            unsupported('operand count');
        for (let k = 0; k < count; k++)
            if (kinds[k] !== NUMBER)
                unsupported('operand type');
    };
    // A Bézier segment as pdf.js records it (kind 2, float32 control points, end point).
    const curveTo = (x1, y1, x2, y2, x3, y3) => {
        path.push(2, Math.fround(x1), Math.fround(y1), Math.fround(x2), Math.fround(y2), Math.fround(x3), Math.fround(y3));
        currentX = x3;
        currentY = y3;
    };
    let i = 0;
    while (i < length) {
        const c = bytes[i];
        const special = SPECIAL[c];
        if (special === 1) {
            i++;
            continue;
        }
        if (special === 2) {
            if (c === 0x25) {
                // % comment to the end of the line
                while (i < length && bytes[i] !== 0x0a && bytes[i] !== 0x0d)
                    i++;
            }
            else if (c === 0x2f) {
                nameStart = ++i;
                nameEscaped = false;
                while (i < length && SPECIAL[bytes[i]] === 0) {
                    if (bytes[i] === 0x23)
                        nameEscaped = true;
                    i++;
                }
                nameEnd = i;
                push(NAME, 0);
            }
            else if (c === 0x28) {
                i = skipString(bytes, i + 1);
                push(OTHER, 0);
            }
            else if (c === 0x3c) {
                i = bytes[i + 1] === 0x3c ? skipDict(bytes, i + 2) : skipHex(bytes, i + 1);
                push(OTHER, 0);
            }
            else if (c === 0x5b) {
                i = skipArray(bytes, i + 1);
                push(OTHER, 0);
            }
            else {
                // ) > ] { } out of place: pdf.js recovers in ways not worth modelling.
                unsupported('stray delimiter');
            }
            continue;
        }
        if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
            // As pdf.js's lexer: the digits as an integer, divided by 10 per decimal. "--1", "1-2",
            // "1.2.3", a lone sign or a letter glued on: pdf.js has its own recoveries for those.
            let j = i;
            let sign = 1;
            if (c === 0x2b || c === 0x2d) {
                if (c === 0x2d)
                    sign = -1;
                j++;
            }
            let value = 0;
            let divideBy = 0;
            let digits = 0;
            for (; j < length; j++) {
                const d = bytes[j];
                if (d >= 0x30 && d <= 0x39) {
                    value = value * 10 + (d - 0x30);
                    if (divideBy !== 0)
                        divideBy *= 10;
                    digits++;
                }
                else if (d === 0x2e && divideBy === 0)
                    divideBy = 1;
                else
                    break;
            }
            if (digits === 0 || (j < length && SPECIAL[bytes[j]] === 0)) {
                unsupported('odd number');
            }
            if (divideBy !== 0)
                value /= divideBy;
            push(NUMBER, sign * value);
            i = j;
            continue;
        }
        // A command, cut where pdf.js's lexer cuts it.
        if (c < 0x20 || c > 0x7f)
            unsupported('binary command');
        let key = c;
        let scale = 256;
        let size = 1;
        let known = KNOWN.has(key);
        i++;
        while (i < length && SPECIAL[bytes[i]] === 0) {
            const longer = key + bytes[i] * scale;
            if (known && !KNOWN.has(longer))
                break;
            key = longer;
            scale *= 256;
            known = KNOWN.has(key);
            i++;
            if (++size > MAX_COMMAND)
                unsupported('unknown command');
        }
        if (key === TRUE || key === FALSE) {
            push(OTHER, 0);
            continue;
        }
        // pdf.js drops null operands.
        if (key === NULL)
            continue;
        const spec = BY_KEY.get(key);
        if (!spec)
            unsupported('unknown command');
        const [id, arity, variable] = spec;
        if (variable ? argc > arity : argc !== arity)
            unsupported('operand count');
        if (--limits.ops < 0)
            return;
        switch (id) {
            case PDF_OPS.save:
                stack.push(ctm);
                break;
            case PDF_OPS.restore:
                ctm = stack.pop() ?? ctm;
                break;
            case PDF_OPS.transform:
                numbers(6);
                ctm = multiply(ctm, [
                    values[0],
                    values[1],
                    values[2],
                    values[3],
                    values[4],
                    values[5],
                ]);
                break;
            case OP.move:
                numbers(2);
                currentX = values[0];
                currentY = values[1];
                path.push(0, Math.fround(currentX), Math.fround(currentY));
                break;
            case OP.line:
                numbers(2);
                currentX = values[0];
                currentY = values[1];
                path.push(1, Math.fround(currentX), Math.fround(currentY));
                break;
            case OP.curve:
                numbers(6);
                curveTo(values[0], values[1], values[2], values[3], values[4], values[5]);
                break;
            case OP.curve2:
                numbers(4);
                curveTo(currentX, currentY, values[0], values[1], values[2], values[3]);
                break;
            case OP.curve3:
                numbers(4);
                curveTo(values[0], values[1], values[2], values[3], values[2], values[3]);
                break;
            case OP.close:
                path.push(4);
                break;
            case OP.rect: {
                numbers(4);
                const x = values[0];
                const y = values[1];
                const xw = x + values[2];
                const yh = y + values[3];
                currentX = x;
                currentY = y;
                const [fx, fy, fxw, fyh] = [x, y, xw, yh].map(Math.fround);
                // As pdf.js's buildPath: a degenerate rectangle is one diagonal.
                if (values[2] === 0 || values[3] === 0)
                    path.push(0, fx, fy, 1, fxw, fyh, 4);
                else
                    path.push(0, fx, fy, 1, fxw, fy, 1, fxw, fyh, 1, fx, fyh, 4);
                break;
            }
            case PDF_OPS.stroke:
            case PDF_OPS.fill:
            case PDF_OPS.eoFill:
            case PDF_OPS.fillStroke:
            case PDF_OPS.eoFillStroke:
            case PDF_OPS.endPath:
            case PDF_OPS.closeStroke:
            case PDF_OPS.closeFillStroke:
            case PDF_OPS.closeEOFillStroke:
                if (id === PDF_OPS.closeStroke ||
                    id === PDF_OPS.closeFillStroke ||
                    id === PDF_OPS.closeEOFillStroke) {
                    path.push(4);
                }
                if (path.length > 0)
                    sink.path(id, path, ctm);
                path = [];
                break;
            case OP.xobject: {
                if (kinds[0] !== NAME)
                    unsupported('XObject not named');
                const name = nameOf(bytes, nameStart, nameEnd, nameEscaped);
                const xobject = resources.xobject(name);
                if (!xobject)
                    unsupported(`XObject ${name} unreadable`);
                if (xobject.kind === 'image') {
                    const { width, height } = xobject;
                    // pdf.js skips images without usable dimensions.
                    if (!width || typeof width !== 'number' || !height || typeof height !== 'number')
                        break;
                    // A 1×1 mask may become paintSolidColorImageMask (not an image) after decoding.
                    if (xobject.imageMask && width === 1 && height === 1)
                        unsupported('pixel mask');
                    if (++limits.images > MAX_IMAGES)
                        unsupported('many images');
                    sink.image(ctm);
                }
                else if (xobject.kind === 'form') {
                    if (depth >= MAX_FORM_DEPTH)
                        unsupported('deep forms');
                    const inner = xobject.matrix ? multiply(ctm, xobject.matrix) : ctm;
                    run(xobject.content, xobject.resources, sink, inner, depth + 1, limits);
                    if (limits.ops < 0)
                        return;
                }
                break;
            }
            case OP.inlineImage:
                unsupported('inline image');
        }
        argc = 0;
    }
}
function nameOf(bytes, start, end, escaped) {
    if (!escaped)
        return String.fromCharCode(...bytes.subarray(start, end));
    let out = '';
    for (let k = start; k < end; k++) {
        const c = bytes[k];
        if (c === 0x23 && k + 2 < end) {
            const hex = Number.parseInt(String.fromCharCode(bytes[k + 1] ?? 0, bytes[k + 2] ?? 0), 16);
            if (!Number.isNaN(hex)) {
                out += String.fromCharCode(hex);
                k += 2;
                continue;
            }
        }
        out += String.fromCharCode(c);
    }
    return out;
}
/** Past the `)` closing a literal string whose `(` is just before `i`. */
function skipString(bytes, i) {
    let depth = 1;
    const length = bytes.length;
    while (i < length) {
        const c = bytes[i];
        if (c === 0x5c)
            i += 2;
        else {
            i++;
            if (c === 0x28)
                depth++;
            else if (c === 0x29 && --depth === 0)
                return i;
        }
    }
    return unsupported('unterminated string');
}
/** Past the `>` closing a hex string. */
function skipHex(bytes, i) {
    const end = bytes.indexOf(0x3e, i);
    return end < 0 ? unsupported('unterminated hex string') : end + 1;
}
/** Past the `>>` closing a dictionary whose `<<` is just before `i`. */
function skipDict(bytes, i) {
    let depth = 1;
    const length = bytes.length;
    while (i < length) {
        const c = bytes[i];
        if (c === 0x28)
            i = skipString(bytes, i + 1);
        else if (c === 0x3c) {
            if (bytes[i + 1] === 0x3c) {
                depth++;
                i += 2;
            }
            else
                i = skipHex(bytes, i + 1);
        }
        else if (c === 0x3e) {
            if (bytes[i + 1] !== 0x3e)
                unsupported('stray >');
            i += 2;
            if (--depth === 0)
                return i;
        }
        else if (c === 0x25) {
            while (i < length && bytes[i] !== 0x0a && bytes[i] !== 0x0d)
                i++;
        }
        else
            i++;
    }
    return unsupported('unterminated dictionary');
}
/** Past the `]` closing an array whose `[` is just before `i`. */
function skipArray(bytes, i) {
    let depth = 1;
    const length = bytes.length;
    while (i < length) {
        const c = bytes[i];
        if (c === 0x28)
            i = skipString(bytes, i + 1);
        else if (c === 0x3c)
            i = bytes[i + 1] === 0x3c ? skipDict(bytes, i + 2) : skipHex(bytes, i + 1);
        else if (c === 0x5b) {
            depth++;
            i++;
        }
        else if (c === 0x5d) {
            i++;
            if (--depth === 0)
                return i;
        }
        else if (c === 0x25) {
            while (i < length && bytes[i] !== 0x0a && bytes[i] !== 0x0d)
                i++;
        }
        else
            i++;
    }
    return unsupported('unterminated array');
}
//# sourceMappingURL=content-graphics.js.map