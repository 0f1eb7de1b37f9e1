/** Fewer words than this say too little about orientation: OSD decides. */
const MIN_WORDS = 10;
/**
 * Mean word confidence (0..100) from which a page counts as read upright. A clean upright page
 * scores about 94 and the same page upside down or turned 270° about 38 (garbage), so the bar
 * sits well above garbage; a poor upright scan below it only costs an OSD run.
 */
const MIN_MEAN_CONFIDENCE = 85;
/** Share of text lines with a vertical baseline above which the page may be turned 90°. */
const MAX_VERTICAL_SHARE = 0.1;
/**
 * True when a recognition result shows an upright page: enough words, read confidently, on
 * horizontal lines. Most pages are upright, so OCR recognises first and runs orientation
 * detection (OSD, about a quarter of the recognition time) only when this is false. A page
 * turned 90° can read confidently (tesseract follows vertical lines), hence the baseline test.
 */
export function looksUpright(page) {
    return (page.words >= MIN_WORDS &&
        page.meanConfidence >= MIN_MEAN_CONFIDENCE &&
        page.verticalLines <= page.lines * MAX_VERTICAL_SHARE);
}
//# sourceMappingURL=looks-upright.js.map