const TOLERANCE = 2;
function mergeSegments(segments) {
    const sorted = [...segments].sort((a, b) => a.at - b.at || a.from - b.from);
    const out = [];
    for (const segment of sorted) {
        const last = out[out.length - 1];
        if (last &&
            Math.abs(last.at - segment.at) <= TOLERANCE &&
            segment.from <= last.to + TOLERANCE) {
            out[out.length - 1] = { ...last, to: Math.max(last.to, segment.to) };
        }
        else {
            out.push(segment);
        }
    }
    return out;
}
function cluster(values) {
    const sorted = [...values].sort((a, b) => a - b);
    const out = [];
    for (const value of sorted) {
        const last = out[out.length - 1];
        if (last === undefined || value - last > TOLERANCE * 1.5)
            out.push(value);
    }
    return out;
}
function intersects(h, v) {
    return (v.at >= h.from - TOLERANCE &&
        v.at <= h.to + TOLERANCE &&
        h.at >= v.from - TOLERANCE &&
        h.at <= v.to + TOLERANCE);
}
/** Share of a table's side its outer rule must cover. */
const FRAME_COVER = 0.9;
/** How much of `[from, to]` the segments at `at` cover (segments are merged: no overlaps). */
function cover(segments, at, from, to) {
    let covered = 0;
    for (const s of segments) {
        if (Math.abs(s.at - at) > TOLERANCE)
            continue;
        covered += Math.max(0, Math.min(s.to, to) - Math.max(s.from, from));
    }
    return to > from ? covered / (to - from) : 0;
}
/**
 * True when the grid's outer rules run along its whole box: a table's frame. Connected boxes of
 * a figure (a tree's nodes, a flowchart's steps joined by connectors) span a box too, but no
 * rule runs along all of it.
 */
function framed(hs, vs, box) {
    return (cover(hs, box.top, box.left, box.right) >= FRAME_COVER &&
        cover(hs, box.bottom, box.left, box.right) >= FRAME_COVER &&
        cover(vs, box.left, box.top, box.bottom) >= FRAME_COVER &&
        cover(vs, box.right, box.top, box.bottom) >= FRAME_COVER);
}
/**
 * True when at least half of the grid's inner rules run through the whole table, as a table's
 * row and column rules do (a cell merged across others interrupts a few). A figure's boxes
 * inside a frame (a flowchart) make many short inner rules and few long ones.
 */
function ruledThrough(hs, vs, rows, columns, box) {
    const inner = [
        ...rows.slice(1, -1).map((y) => cover(hs, y, box.left, box.right)),
        ...columns.slice(1, -1).map((x) => cover(vs, x, box.top, box.bottom)),
    ];
    const through = inner.filter((share) => share >= FRAME_COVER).length;
    return through * 2 >= inner.length;
}
/**
 * Groups ruling lines into grids: connected horizontal and vertical rules form a table whose
 * row boundaries are the distinct y of its horizontals and column boundaries the distinct x of
 * its verticals. Needs at least 2 rows and 2 columns (a box around a paragraph is not a table)
 * and a frame: outer rules along the whole box (see {@link framed}), and inner rules that mostly
 * run through it (see {@link ruledThrough}).
 */
export function findRuledTables(segments, maxSegments = 5000) {
    const horizontals = mergeSegments(segments.filter((s) => s.kind === 'h')).slice(0, maxSegments);
    const verticals = mergeSegments(segments.filter((s) => s.kind === 'v')).slice(0, maxSegments);
    const parent = new Map();
    const find = (s) => {
        let root = s;
        while (parent.get(root) !== root)
            root = parent.get(root) ?? root;
        parent.set(s, root);
        return root;
    };
    for (const s of [...horizontals, ...verticals])
        parent.set(s, s);
    // Sort verticals by x so each horizontal only scans the verticals within its span.
    const byX = [...verticals].sort((a, b) => a.at - b.at);
    for (const h of horizontals) {
        let lo = 0;
        let hi = byX.length;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if ((byX[mid]?.at ?? 0) < h.from - TOLERANCE)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (let i = lo; i < byX.length; i++) {
            const v = byX[i];
            if (!v || v.at > h.to + TOLERANCE)
                break;
            if (intersects(h, v))
                parent.set(find(v), find(h));
        }
    }
    const groups = new Map();
    for (const s of [...horizontals, ...verticals]) {
        const root = find(s);
        const group = groups.get(root);
        if (group)
            group.push(s);
        else
            groups.set(root, [s]);
    }
    const tables = [];
    for (const group of groups.values()) {
        const hs = group.filter((s) => s.kind === 'h');
        const vs = group.filter((s) => s.kind === 'v');
        if (hs.length < 3 || vs.length < 3)
            continue;
        const rows = cluster(hs.map((s) => s.at));
        const columns = cluster(vs.map((s) => s.at));
        if (rows.length < 3 || columns.length < 3)
            continue;
        const box = {
            left: columns[0] ?? 0,
            right: columns[columns.length - 1] ?? 0,
            top: rows[0] ?? 0,
            bottom: rows[rows.length - 1] ?? 0,
        };
        if (!framed(hs, vs, box) || !ruledThrough(hs, vs, rows, columns, box))
            continue;
        tables.push({ box, rows, columns });
    }
    return tables.sort((a, b) => a.box.top - b.box.top);
}
//# sourceMappingURL=ruled-tables.js.map