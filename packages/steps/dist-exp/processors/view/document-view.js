export {};
//# sourceMappingURL=document-view.js.map