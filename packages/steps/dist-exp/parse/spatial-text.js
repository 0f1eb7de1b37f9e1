function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
/** Lays lines out as fixed-width text (the `spatial` target). */
export function spatialText(lines, width) {
    if (lines.length === 0)
        return '';
    const charWidth = Math.max(2, median(lines.map((l) => (l.box.right - l.box.left) / Math.max(1, l.text.length))));
    const lineHeight = Math.max(6, median(lines.map((l) => l.box.bottom - l.box.top)) * 1.15);
    const columns = Math.ceil(width / charWidth) + 1;
    const rows = new Map();
    for (const line of [...lines].sort((a, b) => a.box.top - b.box.top)) {
        let row = Math.round(line.box.top / lineHeight);
        const col = Math.max(0, Math.round(line.box.left / charWidth));
        // Two lines landing on the same row that would overlap go to the next row.
        while ((rows.get(row) ?? [])
            .slice(col, col + line.text.length)
            .some((ch) => ch !== ' ' && ch !== undefined))
            row++;
        const chars = rows.get(row) ?? Array.from({ length: columns }, () => ' ');
        for (let i = 0; i < line.text.length; i++)
            chars[col + i] = line.text[i] ?? ' ';
        rows.set(row, chars);
    }
    const keys = [...rows.keys()].sort((a, b) => a - b);
    const first = keys[0] ?? 0;
    const out = [];
    let previous = first;
    for (const key of keys) {
        // Keep at most one blank line between text rows.
        if (key - previous > 1)
            out.push('');
        out.push((rows.get(key) ?? []).join('').trimEnd());
        previous = key;
    }
    return out.join('\n');
}
//# sourceMappingURL=spatial-text.js.map