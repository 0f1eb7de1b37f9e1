/**
 * Runs every benchmark under `bench/src/<area>/` one after another, each in its own process so
 * that one's heap and JIT state do not colour the next. `pnpm bench` from the root calls this.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');
const only = process.argv[2];
let failed = 0;
for (const area of readdirSync(here).sort()) {
  const dir = join(here, area);
  if (!statSync(dir).isDirectory() || (only && area !== only)) continue;
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.ts') || file.startsWith('_')) continue;
    console.log(`\n## ${area}/${file}\n`);
    const result = spawnSync(process.execPath, ['--import', tsx, join(dir, file)], {
      stdio: 'inherit',
    });
    if (result.status !== 0) failed++;
  }
}
process.exitCode = failed > 0 ? 1 : 0;
