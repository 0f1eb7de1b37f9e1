export {};
//# sourceMappingURL=read-worker.d.ts.map