import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
/**
 * How to start a worker on the module `name` (without extension) next to `self` (the caller's
 * `import.meta.url`): the compiled `.js` module, or, when running from the TypeScript sources
 * (tsx, vitest), the `.ts` module behind tsx's loader registered inside the thread (on Node 20 a
 * loader from the parent's `--import` does not reach worker threads). `undefined` when neither
 * works: the caller then does the work in its own thread.
 */
export function workerEntry(self, name) {
    if (self.endsWith('.js'))
        return { url: new URL(`./${name}.js`, self) };
    if (!self.endsWith('.ts'))
        return undefined;
    let tsx;
    try {
        // The ESM build of tsx's API: its CommonJS build cannot register hooks from a worker.
        tsx = createRequire(self)
            .resolve('tsx/esm/api')
            .replace(/\.cjs$/, '.mjs');
    }
    catch {
        return undefined;
    }
    if (!existsSync(tsx))
        return undefined;
    const api = pathToFileURL(tsx).href;
    const url = new URL(`./${name}.ts`, self).href;
    return {
        code: `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url)}); });`,
    };
}
/** Starts a worker from a {@link WorkerStart}. */
export function startWorker(start, options = {}) {
    return 'url' in start
        ? new Worker(start.url, options)
        : new Worker(start.code, { ...options, eval: true });
}
/**
 * Posts `request` to `worker` and settles with its reply. An abort terminates the worker and
 * rejects with the signal's reason; an error or an exit terminates it and rejects with what
 * `exchange.failed` makes of it. Every listener is removed once it settles.
 */
export function askWorker(worker, request, signal, exchange) {
    return new Promise((resolve, reject) => {
        const done = () => {
            signal.removeEventListener('abort', onAbort);
            worker.off('message', onMessage);
            worker.off('error', onError);
            worker.off('exit', onExit);
        };
        const onAbort = () => {
            done();
            void worker.terminate();
            reject(signal.reason);
        };
        const onMessage = (message) => {
            const outcome = exchange.reply(message);
            if (outcome === undefined)
                return;
            done();
            exchange.answered();
            if ('value' in outcome)
                resolve(outcome.value);
            else
                reject(outcome.error);
        };
        const onError = (error) => {
            done();
            void worker.terminate();
            reject(exchange.failed(error));
        };
        const onExit = (code) => onError(new Error(`its thread exited with code ${code}`));
        signal.addEventListener('abort', onAbort, { once: true });
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage(request);
    });
}
//# sourceMappingURL=worker-entry.js.map