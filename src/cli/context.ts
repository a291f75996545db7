import type { BaseContext } from 'clipanion';

/** What every command gets from src/bin.ts (or a test): streams, environment, and the terminal's abilities. */
export interface ToolContext extends BaseContext {
  env: Record<string, string | undefined>;
  cwd: string;
  /** Colour on stderr: a TTY, no NO_COLOR, TERM not dumb. */
  colors: boolean;
  /** stderr is a terminal (progress lines may be richer). */
  stderrIsTTY: boolean;
  /** stdout is a terminal (pretty-print JSON). */
  stdoutIsTTY: boolean;
  /** stdin is a terminal (someone may be there to press Ctrl-C); false when absent. */
  stdinIsTTY?: boolean;
  /** Aborted on Ctrl-C, SIGTERM or SIGHUP: commands stop sending and report what they have (src/bin.ts turns their exit 130 into the signal's code). */
  signal: AbortSignal;
  /** Print stack traces of internal errors. */
  debug: boolean;
  /** Runs another command line in this process, as runCli does (set by runCli; the demo runs its set-up and workflow through it). */
  runCommandLine?: (argv: readonly string[], context: Omit<ToolContext, 'debug' | 'colorDepth'>) => Promise<number>;
}

/** Whether colours should be used, given the environment and whether the stream is a TTY. */
export function wantsColor(env: Record<string, string | undefined>, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}
