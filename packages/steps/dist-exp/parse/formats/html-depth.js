/**
 * Nesting depth of HTML, measured and capped in one linear pass over the source, before any
 * parser builds a tree: parse5 checks scopes through its stack of open elements at every tag and
 * htmlparser2 prepends to its own, so both are quadratic in the depth (20,000 nested `<div>`s took
 * 33 s, 300,000 took minutes). Documents within the cap are left exactly as they are.
 */
/** Elements whose end tag may be omitted, or that hold nothing: they do not nest in practice. */
const FLAT = new Set([
    'area',
    'base',
    'br',
    'col',
    'embed',
    'hr',
    'img',
    'input',
    'link',
    'meta',
    'source',
    'track',
    'wbr',
    'p',
    'li',
    'dt',
    'dd',
    'tr',
    'td',
    'th',
    'option',
    'optgroup',
    'rb',
    'rt',
    'rp',
    'colgroup',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'html',
    'head',
    'body',
]);
/** Elements whose content is raw text up to their end tag. */
const RAW = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'plaintext']);
const NAME = /<\/?([a-zA-Z][^\s/>]*)/y;
const rawEnds = new Map();
/** Where the raw text of a `name` element opened before `from` ends (its end tag), or -1. */
function rawEnd(html, name, from) {
    let pattern = rawEnds.get(name);
    if (pattern === undefined) {
        pattern = new RegExp(`</${name}[\\s>/]`, 'gi');
        rawEnds.set(name, pattern);
    }
    pattern.lastIndex = from;
    return pattern.exec(html)?.index ?? -1;
}
/** The end of a tag starting at `from` (its `>`), skipping quoted attribute values; -1 if none. */
function tagEnd(html, from) {
    let quote = '';
    for (let i = from; i < html.length; i++) {
        const ch = html[i];
        if (quote !== '') {
            if (ch === quote)
                quote = '';
        }
        else if (ch === '"' || ch === "'")
            quote = ch;
        else if (ch === '>')
            return i;
    }
    return -1;
}
/**
 * Measures how deep the elements of `html` nest and, if deeper than `maxDepth`, returns the
 * source with every tag below that depth removed: their text stays, as text of the element at
 * the cap (a flattened result, not a failure). Comments and raw-text elements (`script`,
 * `style`, …) are skipped whole. Linear in the length of the source.
 */
export function capHtmlDepth(html, maxDepth) {
    let depth = 0;
    let deepest = 0;
    let out = '';
    let copiedTo = 0;
    let flattened = false;
    // Drops html[start, end) from the output (copies what came before it first).
    const drop = (start, end) => {
        out += html.slice(copiedTo, start);
        copiedTo = end;
        flattened = true;
    };
    let i = html.indexOf('<');
    while (i !== -1 && i < html.length) {
        if (html.startsWith('<!--', i)) {
            const close = html.indexOf('-->', i + 4);
            const end = close === -1 ? html.length : close + 3;
            if (depth >= maxDepth)
                drop(i, end);
            i = html.indexOf('<', end);
            continue;
        }
        const next = html[i + 1];
        if (next === '!' || next === '?') {
            const end = tagEnd(html, i + 1);
            i = end === -1 ? -1 : html.indexOf('<', end + 1);
            continue;
        }
        NAME.lastIndex = i;
        const match = NAME.exec(html);
        if (match === null) {
            i = html.indexOf('<', i + 1);
            continue;
        }
        const name = match[1].toLowerCase();
        const end = tagEnd(html, i + match[0].length);
        if (end === -1)
            break;
        const closing = next === '/';
        const selfClosing = html[end - 1] === '/';
        const nests = !FLAT.has(name) && !selfClosing;
        if (closing) {
            if (nests && depth > 0) {
                if (depth > maxDepth)
                    drop(i, end + 1);
                depth--;
            }
            i = html.indexOf('<', end + 1);
            continue;
        }
        if (nests) {
            depth++;
            if (depth > deepest)
                deepest = depth;
            if (depth > maxDepth)
                drop(i, end + 1);
        }
        if (RAW.has(name)) {
            // Raw text runs to the matching end tag, whatever it contains.
            const found = rawEnd(html, name, end + 1);
            const close = found === -1 ? html.length : found;
            if (depth > maxDepth)
                drop(end + 1, close);
            i = close === html.length ? -1 : close;
            continue;
        }
        i = html.indexOf('<', end + 1);
    }
    if (!flattened)
        return { html, depth: deepest, flattened: false };
    return { html: out + html.slice(copiedTo), depth: deepest, flattened: true };
}
//# sourceMappingURL=html-depth.js.map