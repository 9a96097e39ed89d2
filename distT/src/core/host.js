export {};
//# sourceMappingURL=host.js.map