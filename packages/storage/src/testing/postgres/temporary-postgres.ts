import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PostgreSQL server started by {@link startTemporaryPostgres}, stopped by `stop()`. */
export interface TemporaryPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  /** The cluster's data directory, removed by `stop()`. */
  readonly dataDir: string;
  /** The postmaster's process id. */
  readonly pid: number;
  /** Stops the server (fast shutdown) and removes its data directory. Idempotent. */
  stop(): Promise<void>;
}

/** Options of {@link startTemporaryPostgres}. */
export interface TemporaryPostgresOptions {
  /** TCP port on 127.0.0.1; default: a free port the operating system picks. */
  readonly port?: number | undefined;
  /** Directory holding `initdb`, `postgres`; default: found (see {@link findPostgresBinaries}). */
  readonly binDir?: string | undefined;
  /** Extra server settings (`-c name=value`); none by default, so the server runs as installed. */
  readonly settings?: Readonly<Record<string, string | number>> | undefined;
  /** How long to wait for the server to accept connections (default 30 s). */
  readonly startTimeoutMs?: number | undefined;
}

/**
 * The directory of PostgreSQL's server programs: `DOCFLOW_POSTGRES_BIN`, else the newest
 * `/usr/lib/postgresql/<version>/bin` (Debian and Ubuntu), else the directory of an `initdb` on
 * `PATH`. Undefined when none has `initdb`.
 */
export function findPostgresBinaries(): string | undefined {
  const fromEnv = process.env.DOCFLOW_POSTGRES_BIN;
  if (fromEnv !== undefined && fromEnv !== '') {
    return existsSync(join(fromEnv, 'initdb')) ? fromEnv : undefined;
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v) && existsSync(join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(debian, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, 'initdb'))) return dir;
  }
  return undefined;
}

/** PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error(
      'PostgreSQL cannot run as root and there is no postgres user: run as another user, or set DOCFLOW_TEST_POSTGRES_URL',
    );
  }
  return { uid: Number(uid), gid: Number(gid) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the server's log says it is ready, rejects if it exits first or times out. */
function waitUntilReady(
  child: ReturnType<typeof spawn>,
  logOf: () => string,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`PostgreSQL did not start within ${timeoutMs} ms:\n${logOf()}`));
    }, timeoutMs);
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`PostgreSQL exited with ${code} while starting:\n${logOf()}`));
    };
    const onData = () => {
      if (logOf().includes('database system is ready to accept connections')) {
        cleanup();
        resolve();
      }
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stderr?.off('data', onData);
    };
    child.on('exit', onExit);
    child.stderr?.on('data', onData);
  });
}

/**
 * Starts a throwaway PostgreSQL server: `initdb` in a new temporary directory (trust
 * authentication, UTF-8), then `postgres` listening on 127.0.0.1 only, with no Unix socket, and
 * otherwise the installed defaults (`fsync` and `synchronous_commit` on). As root it runs as the
 * `postgres` user. The server is a child of this process; `stop()` ends it and removes the
 * directory, and so does this process's exit (a SIGKILL of this process leaves it running: its
 * directory is under the system's temporary directory).
 *
 * @example
 * const pg = await startTemporaryPostgres();
 * const storage = postgresStorage({ connectionString: pg.url });
 * // …
 * await pg.stop();
 */
export async function startTemporaryPostgres(
  options: TemporaryPostgresOptions = {},
): Promise<TemporaryPostgres> {
  const binDir = options.binDir ?? findPostgresBinaries();
  if (binDir === undefined) {
    throw new Error(
      'PostgreSQL is not installed (no initdb found): install it (Debian: apt-get install postgresql) or set DOCFLOW_TEST_POSTGRES_URL',
    );
  }
  const user = serverUser();
  const dataDir = mkdtempSync(join(tmpdir(), 'docflow-pg-'));
  if (user !== undefined) chownSync(dataDir, user.uid, user.gid);
  const as = user === undefined ? {} : { uid: user.uid, gid: user.gid };
  try {
    execFileSync(
      join(binDir, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      { ...as, stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`initdb failed: ${stderr || (error as Error).message}`);
  }
  const port = options.port ?? (await freePort());
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    port,
    unix_socket_directories: '',
    ...options.settings,
  };
  const args = ['-D', dataDir];
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  const child = spawn(join(binDir, 'postgres'), args, {
    ...as,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    // Keep the start of the log (why it failed to start) and not much more.
    if (log.length < 64 * 1024) log += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // An exit handler cannot wait for a shutdown: the server's processes end with the postmaster.
  const onProcessExit = () => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', onProcessExit);
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      process.off('exit', onProcessExit);
      if (child.exitCode === null && child.signalCode === null) {
        // SIGINT is PostgreSQL's fast shutdown: sessions are ended, nothing waits for clients.
        child.kill('SIGINT');
        const timeout = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timeout);
      }
      child.stderr?.removeAllListeners();
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return stopped;
  };
  try {
    await waitUntilReady(child, () => log, options.startTimeoutMs ?? 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    pid: child.pid ?? 0,
    stop,
  };
}
