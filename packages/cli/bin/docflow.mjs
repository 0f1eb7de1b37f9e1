#!/usr/bin/env node
// Inside the workspace (tsx installed), the TypeScript sources run through tsx, so the bin never
// runs a stale build; an installed package, without tsx, runs the compiled dist/bin.js.
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
