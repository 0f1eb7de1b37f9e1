/** The four corners of a box, clockwise from top-left. */
export function boxPolygon(box) {
    return [
        { x: box.left, y: box.top },
        { x: box.right, y: box.top },
        { x: box.right, y: box.bottom },
        { x: box.left, y: box.bottom },
    ];
}
/** The smallest box around boxes; undefined for none. */
export function unionBoxes(boxes) {
    let out;
    for (const box of boxes) {
        if (!box)
            continue;
        if (!out)
            out = { ...box };
        else {
            out.left = Math.min(out.left, box.left);
            out.top = Math.min(out.top, box.top);
            out.right = Math.max(out.right, box.right);
            out.bottom = Math.max(out.bottom, box.bottom);
        }
    }
    return out;
}
/** Rounds a coordinate to 1/100 point: enough precision, stable output. */
export function round2(value) {
    return Math.round(value * 100) / 100;
}
/** The box around points. */
export function boxOf(points) {
    let left = Number.POSITIVE_INFINITY;
    let top = Number.POSITIVE_INFINITY;
    let right = Number.NEGATIVE_INFINITY;
    let bottom = Number.NEGATIVE_INFINITY;
    for (const [x, y] of points) {
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
    }
    return { left, top, right, bottom };
}
/** Clamps a box into the page. */
export function clampBox(box, width, height) {
    const clamp = (v, max) => Math.min(Math.max(v, 0), max);
    return {
        left: clamp(box.left, width),
        top: clamp(box.top, height),
        right: clamp(box.right, width),
        bottom: clamp(box.bottom, height),
    };
}
//# sourceMappingURL=boxes.js.map