/** `m1 × m2`: apply m2 first, then m1 (pdf.js `Util.transform`). */
export function multiply(m1, m2) {
    return [
        m1[0] * m2[0] + m1[2] * m2[1],
        m1[1] * m2[0] + m1[3] * m2[1],
        m1[0] * m2[2] + m1[2] * m2[3],
        m1[1] * m2[2] + m1[3] * m2[3],
        m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
        m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
    ];
}
/** Applies a matrix to a point. */
export function apply(m, x, y) {
    return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}
/** The frame that turns text running at `angle` (viewport degrees) into left-to-right text. */
export function uprightFrame(angle, width, height) {
    switch (angle) {
        case 90:
            return {
                width: height,
                height: width,
                extraRotation: 270,
                map: (x, y) => [y, width - x],
                mapX: (_x, y) => y,
                mapY: (x) => width - x,
            };
        case 180:
            return {
                width,
                height,
                extraRotation: 180,
                map: (x, y) => [width - x, height - y],
                mapX: (x) => width - x,
                mapY: (_x, y) => height - y,
            };
        case 270:
            return {
                width: height,
                height: width,
                extraRotation: 90,
                map: (x, y) => [height - y, x],
                mapX: (_x, y) => height - y,
                mapY: (x) => x,
            };
        default:
            return {
                width,
                height,
                extraRotation: 0,
                map: (x, y) => [x, y],
                mapX: (x) => x,
                mapY: (_x, y) => y,
            };
    }
}
//# sourceMappingURL=geometry.js.map