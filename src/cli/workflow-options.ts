/**
 * The options `arazzo run` and `arazzo replay` share, declared once: each call makes the option
 * for one command class (clipanion reads them from the instance's fields, in field order).
 */
import { Option } from 'clipanion';
import * as t from 'typanion';
import { parseRefHosts } from './allow-ref-hosts.js';
import { parseCount, resolveInputs } from './input-flags.js';
import { ProjectSettingsError, silencer, type ProjectSettings } from './project-settings.js';
import type { RunnerProfile } from '../arazzo/runner-profile.js';
import { refuseBinds } from '../plan/gate-document.js';
import { parseBindFlags, resolveRunner, RUNNER_FLAG_DESCRIPTION } from './runner-flag.js';

export const workflowRunOptions = {
  inputEnv: () => Option.Array('--input-env', [], { description: 'An input read from an environment variable, as name=VAR (repeatable); never printed' }),
  inputsFile: () => Option.String('--inputs-file', { description: 'A JSON or YAML object of inputs; --input and --input-env override it' }),
  workflow: () => Option.String('--workflow', { description: 'The workflowId to run (required when the document has several)' }),
  output: () =>
    Option.String('--output', 'json', {
      description: 'Format of the run record on stdout: json or yaml',
      validator: t.isEnum(['json', 'yaml'] as const),
    }),
  quiet: () => Option.Boolean('--quiet,-q', false, { description: 'No progress lines; only warnings and errors on stderr' }),
  checks: () =>
    Option.String('--checks', {
      description: "Compare each step's response with its operation in the description (status, content type, body schema): off, warn (a warning per mismatch; the default) or fail (the step fails, and its onFailure actions apply)",
      validator: t.isEnum(['off', 'warn', 'fail'] as const),
    }),
  allowRefHosts: () =>
    Option.Array('--tool-allow-ref-host', [], { description: "A host the descriptions' http(s) $refs may reach: another origin than a remote description's own, or a loopback or private address (repeatable); see docs/security.md" }),
  allowRead: () => Option.Array('--tool-allow-read', [], { description: "A folder the document's descriptions and their file $refs may also read (repeatable); see docs/security.md" }),
  runner: () => Option.String('--tool-runner', { description: RUNNER_FLAG_DESCRIPTION }),
  /** `--tool-max-steps`, `--tool-retry` and `--tool-timeout` as commands that run many workflows take them (undefined: the project's setting, else the default); `what` names a run. */
  maxSteps: (what: string) => Option.String('--tool-max-steps', { description: `Cap on step runs per ${what}, retries and goto revisits included (default 10000)` }),
  retry: () => Option.String('--tool-retry', { description: 'Transport retries per request for connection errors and 408/429/5xx (default 2)' }),
  timeout: () => Option.String('--tool-timeout', { description: 'Per-request timeout in seconds (default 30)' }),
};

/** The most `--tool-max-depth` allows: what the stack holds, with room to spare. */
const MAX_CALL_DEPTH = 500;

/** The values of the options both commands read the same way. */
export interface SharedRunFlags {
  runner?: string;
  inputs: string[];
  inputEnv: string[];
  inputsFile?: string;
  workflow?: string;
  output: 'json' | 'yaml';
  verbose: boolean;
  quiet: boolean;
  /** Undefined when not given: the project's `checks`, else warn. */
  checks: 'off' | 'warn' | 'fail' | undefined;
  /** Undefined when not given: the project's `maxSteps`, else 10000. */
  maxSteps: string | undefined;
  maxDepth: string;
  bodyLimit: string;
  bind: string[];
  allowRefHosts: string[];
  allowRead: string[];
}

/**
 * Checks and resolves what `arazzo run` and `arazzo replay` share into runWorkflowFile's options:
 * the runner profile, the bindings, the inputs, the limits and the read rules, each from its flag,
 * else the project's settings (tool.config.yaml), else its default. Throws usage errors (exit 2).
 */
export async function resolveSharedRunFlags(flags: SharedRunFlags, context: { env: Record<string, string | undefined>; cwd: string }, settings: ProjectSettings = {}) {
  const { profile, from: runnerFrom } = resolveRunner(flags.runner, context.env, settings.runner?.value);
  const bindFlags = parseBindFlags(flags.bind);
  // A runner asked for by name refuses binds now; the default's answer waits for the document (a 1.1 one binds).
  if (runnerFrom !== undefined) refuseBinds(bindFlags, profile);
  const binds = withSettingsBinds(bindFlags, settings, profile.allowsBind);
  const inputFlags = { input: flags.inputs, inputEnv: flags.inputEnv, ...(flags.inputsFile !== undefined ? { inputsFile: flags.inputsFile } : {}) };
  const given = await resolveInputs(inputFlags, context.env, context.cwd, profile);
  const flagHosts = await parseRefHosts(flags.allowRefHosts);
  const allowReadFlags = await (await import('./allow-read-folders.js')).checkAllowReadFolders(flags.allowRead, context.cwd);
  return {
    inputs: given.inputs,
    secretInputs: given.secrets,
    stringInputs: given.strings,
    workflowId: flags.workflow,
    output: flags.output,
    verbose: flags.verbose,
    quiet: flags.quiet,
    checks: flags.checks ?? settings.checks?.value ?? 'warn',
    maxSteps: flags.maxSteps !== undefined ? parseCount('--tool-max-steps', flags.maxSteps, 1, 100_000_000) : (settings.maxSteps?.value ?? 10_000),
    // Each nested call holds stack frames until it ends: 2000 calls overflowed Node's stack, 1000 did not.
    maxDepth: parseCount('--tool-max-depth', flags.maxDepth, 1, MAX_CALL_DEPTH),
    bodyLimit: parseCount('--tool-body-limit', flags.bodyLimit, 0, 50 * 1024 * 1024),
    // The project's hosts lift only the same-origin rule of remote $refs; a flag's also the address rule.
    allowRefHosts: [...flagHosts, ...(settings.allowRefHosts?.value ?? [])],
    addressRefHosts: flagHosts,
    allowRead: [...allowReadFlags, ...(settings.allowRead?.value ?? [])],
    allowReadFlags,
    silence: settings.silence ? silencer(settings) : undefined,
    profile,
    runnerFrom,
    // Read again when the document chooses a profile that types inputs (an Arazzo 1.1 document under the default runner).
    retypeInputs: (chosen: RunnerProfile) => resolveInputs(inputFlags, context.env, context.cwd, chosen),
    binds,
  };
}

/** The `--tool-bind` flags over the project's `bind` (a flag for the same source wins). Throws ProjectSettingsError for `bind` under a runner that does not bind. */
function withSettingsBinds(binds: ReadonlyMap<string, string>, settings: ProjectSettings, allowsBind: boolean): ReadonlyMap<string, string> {
  const bind = settings.bind;
  if (bind === undefined) return binds;
  if (!allowsBind) throw new ProjectSettingsError(settings.shownFile ?? 'tool.config.yaml', bind.line, 'bind needs the v2 runner (add runner: v2, or pass --tool-runner v2)');
  const merged = new Map(Object.entries(bind.value));
  for (const [source, api] of binds) merged.set(source, api);
  return merged;
}

/** The flags of a many-document command that shape each run, as given. */
export interface ManyRunFlags {
  runner: string | undefined;
  inputs: string[];
  inputEnv: string[];
  inputsFile: string | undefined;
  checks: SharedRunFlags['checks'];
  maxSteps: string | undefined;
  allowRefHosts: string[];
  allowRead: string[];
}

/** `arazzo run`'s shared flags for runs that print nothing themselves: their records are collected as JSON. */
export function quietRunFlags(flags: ManyRunFlags): Omit<SharedRunFlags, 'workflow'> {
  return {
    ...(flags.runner !== undefined ? { runner: flags.runner } : {}),
    inputs: flags.inputs,
    inputEnv: flags.inputEnv,
    ...(flags.inputsFile !== undefined ? { inputsFile: flags.inputsFile } : {}),
    output: 'json',
    verbose: false,
    quiet: true,
    checks: flags.checks,
    maxSteps: flags.maxSteps,
    maxDepth: '32',
    bodyLimit: '4096',
    bind: [],
    allowRefHosts: flags.allowRefHosts,
    allowRead: flags.allowRead,
  };
}
