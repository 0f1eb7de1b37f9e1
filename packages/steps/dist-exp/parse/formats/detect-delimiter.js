/** The delimiters CSV parsing considers. */
export const CSV_DELIMITERS = [',', ';', '\t', '|'];
function countOutsideQuotes(line, delimiter) {
    let count = 0;
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
        const ch = line[i];
        if (ch === '"')
            quoted = !quoted;
        else if (ch === delimiter && !quoted)
            count++;
    }
    return count;
}
/**
 * Picks the delimiter whose per-line count (outside quotes) is the most consistent over the
 * first lines, preferring more columns on a tie. Papaparse's own guess picks `,` for a
 * two-column tab file, so we score the candidates ourselves.
 */
export function detectDelimiter(text, sampleLines = 30) {
    const lines = text
        .slice(0, 256 * 1024)
        .split(/\r\n|\n|\r/)
        .filter((line) => line.trim() !== '')
        .slice(0, sampleLines);
    let best = ',';
    let bestScore = -1;
    for (const delimiter of CSV_DELIMITERS) {
        const counts = lines.map((line) => countOutsideQuotes(line, delimiter));
        const frequency = new Map();
        for (const count of counts)
            frequency.set(count, (frequency.get(count) ?? 0) + 1);
        let mode = 0;
        let modeLines = 0;
        for (const [count, n] of frequency) {
            if (count > 0 && (n > modeLines || (n === modeLines && count > mode))) {
                mode = count;
                modeLines = n;
            }
        }
        if (mode === 0)
            continue;
        const score = (modeLines / Math.max(1, lines.length)) * 1000 + Math.min(mode, 999);
        if (score > bestScore) {
            bestScore = score;
            best = delimiter;
        }
    }
    return best;
}
//# sourceMappingURL=detect-delimiter.js.map