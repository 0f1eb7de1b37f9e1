export {};
//# sourceMappingURL=format-worker.d.ts.map