/** Starts a list item: a bullet, `1.`, `(1)`, `a)`. */
export const LIST_MARK = /^([•▪◦‣●○■□\-–*]|\(?\d{1,3}[.)]|[a-z][.)])\s+/;
/** A line that reads `Label: value`: a short label (up to five words) before a colon. */
const LABELLED = /^[^:\s][^:]{0,40}:\s+\S/;
function labelled(text) {
    const match = LABELLED.exec(text);
    if (!match)
        return false;
    const label = text.slice(0, text.indexOf(':'));
    return label.split(' ').length <= 5;
}
/**
 * A line narrower than this share of the widest text of its size on the page does not wrap: a
 * narrow block set beside others (an address, a letterhead) breaks its lines; text columns, two
 * or three to a page, are wider.
 */
const MIN_WRAP_WIDTH = 0.4;
/**
 * How `next` follows `line` inside a paragraph, from the geometry of the line and its column:
 * a wrap when the text ran out of room (the first word of the next line would not have fit in
 * the column's width, at its right edge) and the line is as wide as text columns are; a break
 * when the line ended with room to spare or is narrow (an address, a label and its value), when
 * either line is a row of separated pieces, when the line ends with a colon, or when both lines
 * read `Label: value`, or when both are set in a fixed-pitch font (code). `widest` is the width of the widest text of the line's size on the page.
 */
export function lineJoin(line, next, column, widest) {
    if (line.cells.length > 1 || next.cells.length > 1)
        return 'break';
    // A code listing keeps its lines: a program's lines end where its author ended them.
    if (line.mono && next.mono)
        return 'break';
    if (line.text.endsWith(':'))
        return 'break';
    if (labelled(line.text) && labelled(next.text))
        return 'break';
    const width = line.box.right - line.box.left;
    if (width < widest * MIN_WRAP_WIDTH)
        return 'break';
    const charWidth = (next.box.right - next.box.left) / Math.max(1, next.text.length);
    const firstWord = next.text.split(' ', 1)[0] ?? '';
    // Room at the end of the line, or beside it for a centred one.
    const room = Math.min(column.right - line.box.right, column.right - column.left - width);
    // The next word, a space before it, and half an em for the uncertainty of a width estimated
    // from the average character.
    return firstWord.length * charWidth + line.size * 0.75 > room ? 'wrap' : 'break';
}
/**
 * True when `next` continues the paragraph `lines` (whose last line is `last`): the next line
 * down at the paragraph's line spacing (no paragraph spacing), the same size and weight, not a
 * list item, aligned on the left (a first-line or hanging indent allowed on the second line), on
 * the centre or on the right, and not indented against the paragraph's body (a new paragraph's
 * first-line indent).
 */
export function continuesParagraph(lines, next) {
    const last = lines[lines.length - 1];
    const first = lines[0];
    if (!last || !first)
        return false;
    const size = Math.max(last.size, next.size);
    const pitch = next.baseline - last.baseline;
    const gap = next.box.top - last.box.bottom;
    if (pitch < size * 0.5 || gap < -1 || gap >= last.size * 0.6)
        return false;
    const second = lines[1];
    if (second) {
        // The spacing the paragraph has kept so far.
        const established = second.baseline - first.baseline;
        if (pitch > established * 1.25 + 0.5)
            return false;
    }
    if (Math.abs(next.size - last.size) >= 0.6 || next.bold !== last.bold)
        return false;
    if (LIST_MARK.test(next.text))
        return false;
    const body = second ?? first;
    if (second && next.box.left - body.box.left > size * 0.8)
        return false;
    const leftAligned = Math.abs(next.box.left - (second ? body.box.left : first.box.left)) < size * 3;
    const centre = (l) => (l.box.left + l.box.right) / 2;
    const centred = Math.abs(centre(next) - centre(last)) <= size;
    const rightAligned = Math.abs(next.box.right - last.box.right) <= size * 0.5;
    return leftAligned || centred || rightAligned;
}
/**
 * The paragraph's text as markdown: wrapped lines joined by a space (a word hyphenated at the
 * line end joined again, as pdftotext does), broken lines kept apart by a line break.
 */
export function paragraphMarkdown(paragraph) {
    let out = paragraph.lines[0]?.text ?? '';
    for (let i = 1; i < paragraph.lines.length; i++) {
        const text = paragraph.lines[i]?.text ?? '';
        if (paragraph.joins[i - 1] === 'break') {
            out += `\n${text}`;
        }
        else if (/\p{L}[-\u00ad\u2010]$/u.test(out) && /^\p{Ll}/u.test(text)) {
            out = out.slice(0, -1) + text;
        }
        else {
            out += ` ${text}`;
        }
    }
    return out;
}
//# sourceMappingURL=paragraphs.js.map