#!/usr/bin/env node
// The workspace's bin: it runs the TypeScript sources through tsx, so that it never runs a stale
// build. The published package's bin is dist/bin.js (publishConfig.bin); this file is not packed.
// Without tsx (a workspace installed without dev dependencies) it runs the build in dist/.
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  register = undefined;
}
if (register) {
  register();
  await import(new URL('../src/bin.ts', import.meta.url).href);
} else {
  await import(new URL('../dist/bin.js', import.meta.url).href);
}
