export {};
//# sourceMappingURL=processor-config.js.map