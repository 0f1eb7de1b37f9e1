import { offlineClassify } from './offline-classify.js';
import { offlineExtract } from './offline-extract.js';
import { offlineSplit } from './offline-split.js';
function throwIfAborted(signal) {
    signal?.throwIfAborted();
}
/**
 * The offline {@link Provider}: classification by weighted term matching, splitting by per-page
 * classification and boundary cues, extraction by matching schema properties to labels and table
 * headers. Genuinely useful on clean business documents; its confidences say when it is not.
 *
 * @example
 * const provider = offlineProvider();
 * const { output } = await provider.classify(view, { classifications });
 */
export function offlineProvider() {
    return {
        name: 'offline',
        async classify(doc, config, options = {}) {
            throwIfAborted(options.signal);
            return { output: offlineClassify(doc, config), usage: { pages: doc.pages.length } };
        },
        async extract(doc, schema, _config, options = {}) {
            throwIfAborted(options.signal);
            return { output: offlineExtract(doc, schema), usage: { pages: doc.pages.length } };
        },
        async split(doc, config, options = {}) {
            throwIfAborted(options.signal);
            return { splits: offlineSplit(doc, config), usage: { pages: doc.pages.length } };
        },
    };
}
//# sourceMappingURL=offline-provider.js.map