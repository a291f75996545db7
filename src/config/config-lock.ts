/** The one lock every read-modify-write of apis.json, credentials.json and tokens.json takes. */

import { chmod, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from './errors.js';
import type { ConfigPaths } from './paths.js';
import { refuseReadOnly, refuseReadOnlyFiles } from './refuse-read-only.js';

/** A lock not refreshed for this long belongs to a process that died; the next writer takes it over. */
export const LOCK_STALE_MS = 10_000;

/** How long a writer waits for the lock before giving up (a holder keeps it for milliseconds). */
export const LOCK_WAIT_MS = 30_000;

/** Proof that the caller holds the configuration lock; only withConfigLock makes one. */
export interface ConfigLock {
  readonly lockPath: string;
}

export interface LockTiming {
  waitMs: number;
  staleMs: number;
}

export interface LockOptions {
  /**
   * The files `work` will write, checked before it runs: when one of them (or its folder) is
   * read-only, nothing is written, rather than the first files of a change that cannot complete.
   */
  writes?: string[];
  /** Tests shorten these. */
  timing?: LockTiming;
}

/** The lock directory: `$XDG_CONFIG_HOME/tool/.lock`. */
export function lockPathOf(paths: Pick<ConfigPaths, 'configDir'>): string {
  return join(paths.configDir, '.lock');
}

/**
 * Runs `work` while holding the lock, creating the config folder (0700) when missing. Throws
 * ConfigError: CONFIG_READ_ONLY for a read-only folder or one of `options.writes`, CONFIG_LOCKED
 * when another process held the lock for `waitMs`, CONFIG_LOCK_LOST when this process was too slow
 * to keep it; and whatever `work` throws.
 */
export async function withConfigLock<T>(paths: Pick<ConfigPaths, 'configDir'>, work: (lock: ConfigLock) => Promise<T>, options: LockOptions = {}): Promise<T> {
  const timing = options.timing ?? { waitMs: LOCK_WAIT_MS, staleMs: LOCK_STALE_MS };
  const lockPath = lockPathOf(paths);
  await makeConfigDir(paths.configDir);
  await refuseReadOnly(paths.configDir);
  // Loaded here, not at the top: only commands that write pay for it.
  const { lock } = await import('proper-lockfile');
  let lost: Error | undefined;
  const lockOptions = {
    lockfilePath: lockPath,
    realpath: false,
    stale: timing.staleMs,
    retries: 0,
    onCompromised: (error: Error): void => {
      lost = error;
    },
  };
  const release = await acquire(() => lock(paths.configDir, lockOptions), lockPath, timing);
  let result: T;
  try {
    await refuseReadOnlyFiles(options.writes ?? []);
    result = await work({ lockPath });
  } finally {
    await release().catch(() => undefined);
  }
  if (lost !== undefined) {
    throw new ConfigError(
      'CONFIG_LOCK_LOST',
      `lost the lock ${lockPath} while changing the configuration (this process was paused for more than ${timing.staleMs / 1000} s)`,
      'Another command may have changed the same files at the same moment: check them (tool api list, tool auth status) and run the command again if needed.',
    );
  }
  return result;
}

// proper-lockfile's own retries would work too, but a deadline says plainly how long a command waits.
async function acquire(tryLock: () => Promise<() => Promise<void>>, lockPath: string, timing: LockTiming): Promise<() => Promise<void>> {
  const deadline = Date.now() + timing.waitMs;
  for (;;) {
    try {
      return await tryLock();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED') throw new ConfigError('CONFIG_WRITE_FAILED', `cannot create the lock ${lockPath} (${code ?? (error as Error).message})`, 'Check the permissions of the folder and the free space.');
      if (Date.now() >= deadline) throw lockedError(lockPath, timing);
      // A little jitter, so that waiting commands do not retry in step.
      await pause(20 + Math.random() * 60);
    }
  }
}

async function makeConfigDir(dir: string): Promise<void> {
  if (await stat(dir).then(() => true, () => false)) return;
  try {
    await mkdir(dirname(dir), { recursive: true });
    // A read-only XDG_CONFIG_HOME is refused too, even though root could create tool/ inside it.
    await refuseReadOnly(dirname(dir));
    await mkdir(dir, { mode: 0o700 });
    await chmod(dir, 0o700);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    throw new ConfigError('CONFIG_WRITE_FAILED', `cannot create ${dir} (${code ?? (error as Error).message})`, 'Check the permissions of the parent folder, or set XDG_CONFIG_HOME to a folder you can write.');
  }
}

function lockedError(lockPath: string, timing: LockTiming): ConfigError {
  return new ConfigError(
    'CONFIG_LOCKED',
    `another tool process has held ${lockPath} for more than ${timing.waitMs / 1000} s; nothing was changed`,
    `Run the command again when the other one has finished. A lock left by a process that died is taken over after ${timing.staleMs / 1000} s.`,
  );
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
