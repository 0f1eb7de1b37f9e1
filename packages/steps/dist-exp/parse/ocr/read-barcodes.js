import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { loadBarcodeReader } from '../../optional/optional-package.js';
import { boxOf } from '../boxes.js';
import { rgbaFromGray } from './gray-image.js';
let ready;
/** zxing-wasm with its bundled wasm passed in: by default it would fetch it from a CDN. */
function loadReader() {
    ready ??= (async () => {
        const zxing = await loadBarcodeReader('Reading barcodes');
        // The package exports no package.json: find dist/ from the CommonJS entry (dist/cjs/full).
        const root = join(dirname(createRequire(import.meta.url).resolve('zxing-wasm')), '..', '..', '..');
        const wasm = readFileSync(join(root, 'dist', 'reader', 'zxing_reader.wasm'));
        await zxing.prepareZXingModule({
            overrides: {
                wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength),
            },
            fireImmediately: true,
        });
        return zxing;
    })();
    return ready;
}
/** Barcodes in a gray page as barcode blocks, corner points scaled to points. */
export async function readBarcodeBlocks(image, pointsPerPixel) {
    const zxing = await loadReader();
    // Pixels rather than an encoded image: nothing to encode here and decode again in zxing.
    const pixels = { data: rgbaFromGray(image), width: image.width, height: image.height };
    const results = await zxing.readBarcodesFromImageData(pixels, {
        tryHarder: true,
        maxNumberOfSymbols: 32,
    });
    const blocks = [];
    for (const result of results) {
        if (!result.isValid)
            continue;
        const p = result.position;
        const polygon = [p.topLeft, p.topRight, p.bottomRight, p.bottomLeft].map((point) => ({
            x: point.x * pointsPerPixel,
            y: point.y * pointsPerPixel,
        }));
        blocks.push({
            type: 'barcode',
            content: result.text,
            markdown: `[${result.format}: ${result.text}]`,
            details: { type: 'barcode_details', decodedValue: result.text, format: result.format },
            polygon,
            boundingBox: boxOf(polygon.map((point) => [point.x, point.y])),
        });
    }
    return blocks;
}
//# sourceMappingURL=read-barcodes.js.map