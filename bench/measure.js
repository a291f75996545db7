/** Spawning and timing child processes: wall time, captured output, peak RSS. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const GNU_TIME = '/usr/bin/time';
const RSS_HOOK = fileURLToPath(new URL('./report-rss.js', import.meta.url));

/**
 * How peak RSS is read: GNU time's `%M` (KiB) when /usr/bin/time exists, else a `--import` hook
 * that writes `process.resourceUsage().maxRSS` to a side file at exit. Every timed command is
 * wrapped the same way (the `node -e 0` baseline too), so the wrapper's cost cancels out.
 */
export function rssMethod() {
  return existsSync(GNU_TIME) ? 'gnu-time' : 'resource-usage';
}

/**
 * Runs `node <args>` and resolves to {code, wallMs, stdout, stderr, rssKiB}. Never rejects on a
 * non-zero exit; rejects only when the process cannot be started.
 */
export function timeNode(args, options = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'tool-bench-rss-'));
  const rssFile = join(scratch, 'rss');
  const method = rssMethod();
  const [command, argv] =
    method === 'gnu-time'
      ? [GNU_TIME, ['-f', '%M', '-o', rssFile, process.execPath, ...args]]
      : [process.execPath, ['--import', RSS_HOOK, ...args]];
  const env = { ...process.env, ...options.env, BENCH_RSS_FILE: rssFile };
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      let rssKiB;
      try {
        rssKiB = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
      } catch {
        rssKiB = undefined;
      }
      rmSync(scratch, { recursive: true, force: true });
      resolve({ code, wallMs, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), rssKiB });
    });
  });
}

/** The median of a list of numbers (the mean of the middle two for an even count); NaN when empty. */
export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
