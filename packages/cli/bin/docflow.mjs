#!/usr/bin/env node
// The published package runs the compiled dist/bin.js; inside the workspace, the TypeScript
// sources run through tsx.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/bin.js', import.meta.url);
if (existsSync(dist)) {
  await import(dist.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/bin.ts', import.meta.url).href);
}
