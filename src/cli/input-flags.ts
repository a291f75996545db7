import { CommandUsageError } from './errors.js';

/** Parses repeated `--input key=value` flags into a map; a flag without `=` or with an empty key is a usage error. */
export function parseInputFlags(flags: readonly string[]): Record<string, string> {
  const inputs: Record<string, string> = Object.create(null);
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    if (eq <= 0) {
      throw new CommandUsageError(`--input ${JSON.stringify(flag)} is not key=value`, 'Write it as --input petId=42 (repeat --input for each input).');
    }
    inputs[flag.slice(0, eq)] = flag.slice(eq + 1);
  }
  return { ...inputs };
}

/** Parses a whole number flag strictly (no parseInt leniency): digits only, within [min, max]. */
export function parseCount(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value.trim())) throw new CommandUsageError(`${flag} must be a whole number, got ${JSON.stringify(value)}`);
  const n = Number(value.trim());
  if (n < min || n > max) throw new CommandUsageError(`${flag} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Parses a duration in seconds (decimals allowed, > 0) and returns milliseconds. */
export function parseSeconds(flag: string, value: string, maxSeconds: number): number {
  if (!/^\d+(\.\d+)?$/.test(value.trim())) throw new CommandUsageError(`${flag} must be a number of seconds, got ${JSON.stringify(value)}`);
  const seconds = Number(value.trim());
  if (seconds <= 0 || seconds > maxSeconds) throw new CommandUsageError(`${flag} must be more than 0 and at most ${maxSeconds} seconds, got ${seconds}`);
  return Math.round(seconds * 1000);
}
