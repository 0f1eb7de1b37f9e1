/**
 * `npm start` of the example, as a user runs it: one API process and three workers on one
 * PostgreSQL database. Documents posted to the API are processed by the workers; worker 1, killed
 * with SIGKILL while it parses (each parse waits `DOCFLOW_PARSE_DELAY_MS` first), leaves that
 * step to the others, which process that very step run once its lease expires.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { postgresForTests } from '@docflow/storage/testing';
import { describe, expect, it } from 'vitest';

const pg = postgresForTests();
const tsx = createRequire(import.meta.url).resolve('tsx');
const start = join(import.meta.dirname, '../src/start.ts');

describe.skipIf(pg.skip)('examples/multi-process', () => {
  it('runs posted documents on the workers; a step whose worker died while it ran is taken over', async () => {
    const launcher = spawn(process.execPath, ['--import', tsx, start], {
      env: {
        ...process.env,
        DOCFLOW_POSTGRES_URL: pg.url,
        DOCFLOW_POSTGRES_SCHEMA: pg.schema(),
        DOCFLOW_LEASE_MS: '2000',
        DOCFLOW_PARSE_DELAY_MS: '1000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', resolve));
    let out = '';
    const seen = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const look = () => {
          const match = pattern.exec(out);
          if (match) {
            launcher.stdout?.off('data', look);
            resolve(match);
          }
        };
        launcher.stdout?.on('data', look);
        void exited.then(() => reject(new Error(`the example exited:\n${out}`)));
        setTimeout(() => reject(new Error(`no ${pattern} within 60 s:\n${out}`)), 60_000).unref();
        look();
      });
    launcher.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    try {
      const [, api] = await seen(/\[api\] api listening on (http:\/\/\S+)/);
      const pids: number[] = [];
      for (const n of [1, 2, 3]) {
        pids.push(
          Number(
            (await seen(new RegExp(`\\[worker-${n}\\] worker-${n} ready \\(pid (\\d+)\\)`)))[1],
          ),
        );
      }
      const ids: string[] = [];
      const post = async (i: number) => {
        const res = await fetch(`${api}/runs`, {
          method: 'POST',
          body: `Invoice number: INV-${i}\nTotal: ${100 + i}.00 EUR\n`,
        });
        expect(res.status).toBe(201);
        ids.push(((await res.json()) as { id: string }).id);
      };
      // Documents until worker 1 has a parse in flight (whichever worker wakes first claims).
      const held = /\[worker-1\] worker-1 parsing (\S+)/;
      for (let i = 0; i < 40 && !held.test(out); i++) {
        await post(i);
        await new Promise((r) => setTimeout(r, 100));
      }
      const heldStep = (await seen(held))[1] as string;
      // Worker 1 dies holding that step (its parse waits a second before it starts).
      process.kill(pids[0] as number, 'SIGKILL');
      expect(out).not.toContain(`processed ${heldStep}`);
      const deadline = Date.now() + 90_000;
      const statuses = new Map<string, string>();
      while (Date.now() < deadline) {
        for (const id of ids) {
          const res = await fetch(`${api}/runs/${id}`);
          statuses.set(id, ((await res.json()) as { status: string }).status);
        }
        if ([...statuses.values()].every((s) => s === 'PROCESSED')) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect([...statuses.values()]).toEqual(ids.map(() => 'PROCESSED'));
      // The API process executed nothing; the workers that lived did.
      expect(out).not.toMatch(/\[api\] .* processed /);
      // The step worker 1 held when it died was processed by another worker, once.
      const heldBy = [
        ...out.matchAll(new RegExp(`\\[(worker-\\d)\\] \\S+ processed ${heldStep}`, 'g')),
      ];
      expect(heldBy.map((m) => m[1])).toHaveLength(1);
      expect(heldBy[0]?.[1]).toMatch(/^worker-[23]$/);
      // The launcher reports the death when it hears of it, which may be after the runs ended.
      await seen(/\[worker-1\] exited \(SIGKILL\)/);
    } finally {
      launcher.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 180_000);
});
