import { DEFAULT_PROFILE, profileNamed, type RunnerProfile } from '../arazzo/runner-profile.js';
import { CommandUsageError } from '../errors/tool-error.js';

/** The description of `--tool-runner`, the same on run, validate and graph. */
export const RUNNER_FLAG_DESCRIPTION = 'Runner contract: v1 (default) or v2; the TOOL_RUNNER environment variable sets the default';

/** The runner profile a command asked for, and where it was asked for (undefined: nothing asked, the default). */
export interface RunnerChoice {
  profile: RunnerProfile;
  from?: string;
}

/**
 * The runner profile a command asks for (a document's `arazzo: 1.1.x` may choose another:
 * documentProfile of runner-profile.ts): `--tool-runner` when given, else `TOOL_RUNNER`, else the
 * project's `runner` (tool.config.yaml), else v1.
 * Throws CommandUsageError (exit 2) for any other value, naming where it came from.
 */
export function resolveRunner(flag: string | undefined, env: Record<string, string | undefined>, project?: RunnerProfile): RunnerChoice {
  const fromEnv = env.TOOL_RUNNER === undefined || env.TOOL_RUNNER === '' ? undefined : env.TOOL_RUNNER;
  if (flag === undefined && fromEnv === undefined) return project !== undefined ? { profile: project, from: 'tool.config.yaml (runner)' } : { profile: DEFAULT_PROFILE };
  const value = flag ?? fromEnv ?? DEFAULT_PROFILE.name;
  const where = flag !== undefined ? '--tool-runner' : 'the TOOL_RUNNER environment variable';
  const profile = profileNamed(value);
  if (profile !== undefined) return { profile, from: where };
  throw new CommandUsageError(`${where} must be v1 or v2, got ${JSON.stringify(value)}`, `Use --tool-runner v1 (the default) or --tool-runner v2.`);
}

const BIND = /^([^=]+)=(.+)$/s;

/**
 * The `--tool-bind <source>=<api>` flags as a map from source name to API name. Throws
 * CommandUsageError (exit 2) for a flag without `=` or with an empty side, and for a source bound
 * to two different APIs. Whether the run's profile binds at all is refuseBinds' question (gate-document.ts), asked
 * once the profile is known (an Arazzo 1.1 document chooses its own).
 */
export function parseBindFlags(values: readonly string[]): ReadonlyMap<string, string> {
  const binds = new Map<string, string>();
  for (const value of values) {
    const match = BIND.exec(value);
    const source = match?.[1]?.trim() ?? '';
    const api = match?.[2]?.trim() ?? '';
    if (source === '' || api === '') throw new CommandUsageError(`--tool-bind ${JSON.stringify(value)} is not <source>=<api>`, 'Write it as --tool-bind <source-name>=<api-name>, e.g. --tool-bind petstore=petstore-staging.');
    const earlier = binds.get(source);
    if (earlier !== undefined && earlier !== api) throw new CommandUsageError(`--tool-bind binds source "${source}" to both "${earlier}" and "${api}"`, 'Give one --tool-bind per source.');
    binds.set(source, api);
  }
  return binds;
}

