export {};
//# sourceMappingURL=draft-document.js.map