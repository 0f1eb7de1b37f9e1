export {};
//# sourceMappingURL=processor-step-options.js.map