/**
 * The flags that shape how many runs `arazzo test` makes and when: `--concurrency`, `--repeat`,
 * `--duration`, `--rate` and `--shard` (or JOB_COMPLETION_INDEX with TOOL_SHARD_TOTAL, as a
 * Kubernetes Indexed Job sets them). Pure: text in, numbers out; a bad value is a usage error
 * (exit 2) before anything runs.
 */
import { CommandUsageError } from '../../errors/tool-error.js';
import { parseCount } from '../input-flags.js';

/** The load flags as given (strings, undefined when absent). */
export interface LoadFlagValues {
  concurrency?: string | undefined;
  repeat?: string | undefined;
  duration?: string | undefined;
  rate?: string | undefined;
  shard?: string | undefined;
}

/** The load flags, read. */
export interface LoadPlan {
  /** Runs in flight at most (1: one after the other). */
  concurrency: number;
  /** Passes over the suite's runs; undefined with --duration alone (as many as fit). */
  repeat: number | undefined;
  /** No run starts after this many milliseconds from the suite's start. */
  durationMs: number | undefined;
  /** Runs started per second (an open model: they start on time whether or not earlier ones finished). */
  ratePerSecond: number | undefined;
  /** This process runs the runs whose position p (0-based, in suite order) has p % total === index - 1. */
  shard: { index: number; total: number } | undefined;
  /** --repeat, --duration or --rate: a load run (figures matter more than each run's line). */
  load: boolean;
}

/** Runs in flight at most under --rate when --concurrency is not given. */
export const RATE_CONCURRENCY = 100;

/** Reads the load flags; `env` for the shard an Indexed Job gives. Throws CommandUsageError. */
export function readLoadFlags(values: LoadFlagValues, env: Record<string, string | undefined>): LoadPlan {
  const ratePerSecond = values.rate !== undefined ? parseRate(values.rate) : undefined;
  const concurrency = values.concurrency !== undefined ? parseCount('--concurrency', values.concurrency, 1, 1000) : ratePerSecond !== undefined ? RATE_CONCURRENCY : 1;
  const repeat = values.repeat !== undefined ? parseCount('--repeat', values.repeat, 1, 10_000_000) : undefined;
  const durationMs = values.duration !== undefined ? parseDuration('--duration', values.duration) : undefined;
  const shard = values.shard !== undefined ? parseShard('--shard', values.shard) : shardFromEnv(env);
  return { concurrency, repeat, durationMs, ratePerSecond, shard, load: repeat !== undefined || durationMs !== undefined || ratePerSecond !== undefined };
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `60s`, `1.5m`, `500ms`, `2h`, or a bare number of seconds; more than 0, at most 7 days. */
export function parseDuration(flag: string, value: string): number {
  const match = DURATION.exec(value.trim());
  const ms = match === null ? NaN : Number(match[1]) * UNIT_MS[match[2] ?? 's']!;
  if (!(ms > 0) || ms > 7 * 24 * 3_600_000) throw new CommandUsageError(`${flag} must be a duration such as 60s, 5m or 500ms (more than 0, at most 7 days), got ${JSON.stringify(value)}`);
  return Math.round(ms);
}

const RATE = /^(\d+(?:\.\d+)?)(?:\/(s|m|h))?$/;

/** `20/s`, `600/m`, `50` (per second): runs started per second, more than 0 and at most 10 000. */
export function parseRate(value: string): number {
  const match = RATE.exec(value.trim());
  const perSecond = match === null ? NaN : Number(match[1]) / ({ s: 1, m: 60, h: 3600 }[match[2] ?? 's'] ?? 1);
  if (!(perSecond > 0) || perSecond > 10_000) throw new CommandUsageError(`--rate must be runs per second such as 20/s, 600/m or 50 (more than 0, at most 10000/s), got ${JSON.stringify(value)}`);
  return perSecond;
}

/** `i/n`, 1 ≤ i ≤ n ≤ 10 000. */
export function parseShard(flag: string, value: string): { index: number; total: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  if (match === null) throw new CommandUsageError(`${flag} must be i/n (this process's shard and the number of shards, such as 2/4), got ${JSON.stringify(value)}`);
  const index = Number(match[1]);
  const total = Number(match[2]);
  if (total < 1 || total > 10_000 || index < 1 || index > total) throw new CommandUsageError(`${flag} ${value}: the shard must be from 1 to the number of shards (1/${Math.max(total, 1)} … ${Math.max(total, 1)}/${Math.max(total, 1)}), and there may be at most 10000`);
  return { index, total };
}

/** JOB_COMPLETION_INDEX (0-based) and TOOL_SHARD_TOTAL: shard index+1 of total; neither set: no shard. */
function shardFromEnv(env: Record<string, string | undefined>): { index: number; total: number } | undefined {
  const total = env.TOOL_SHARD_TOTAL;
  const index = env.JOB_COMPLETION_INDEX;
  // JOB_COMPLETION_INDEX alone belongs to some other Indexed Job: only TOOL_SHARD_TOTAL asks for shards.
  if (total === undefined || total === '') return undefined;
  if (index === undefined || !/^\d+$/.test(index.trim())) {
    throw new CommandUsageError(`TOOL_SHARD_TOTAL=${total} is set, but JOB_COMPLETION_INDEX is ${index === undefined ? 'not set' : `${JSON.stringify(index)}, not a whole number`}`, 'A Kubernetes Indexed Job sets JOB_COMPLETION_INDEX (0-based); elsewhere give --shard i/n instead.');
  }
  if (!/^\d+$/.test(total.trim())) throw new CommandUsageError(`TOOL_SHARD_TOTAL must be a whole number of shards, got ${JSON.stringify(total)}`);
  return parseShard('JOB_COMPLETION_INDEX/TOOL_SHARD_TOTAL', `${Number(index.trim()) + 1}/${total.trim()}`);
}
