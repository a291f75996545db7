/**
 * The options `arazzo run` and `arazzo replay` share, declared once: each call makes the option
 * for one command class (clipanion reads them from the instance's fields, in field order).
 */
import { Option } from 'clipanion';
import * as t from 'typanion';
import { parseRefHosts } from './allow-ref-hosts.js';
import { parseCount, resolveInputs } from './input-flags.js';
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
    Option.String('--checks', 'warn', {
      description: "Compare each step's response with its operation in the description (status, content type, body schema): off, warn (a warning per mismatch; the default) or fail (the step fails, and its onFailure actions apply)",
      validator: t.isEnum(['off', 'warn', 'fail'] as const),
    }),
  allowRefHosts: () =>
    Option.Array('--tool-allow-ref-host', [], { description: "A host the descriptions' http(s) $refs may reach: another origin than a remote description's own, or a loopback or private address (repeatable); see docs/security.md" }),
  allowRead: () => Option.Array('--tool-allow-read', [], { description: "A folder the document's descriptions and their file $refs may also read (repeatable); see docs/security.md" }),
  runner: () => Option.String('--tool-runner', { description: RUNNER_FLAG_DESCRIPTION }),
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
  checks: 'off' | 'warn' | 'fail';
  maxSteps: string;
  maxDepth: string;
  bodyLimit: string;
  bind: string[];
  allowRefHosts: string[];
  allowRead: string[];
}

/**
 * Checks and resolves what `arazzo run` and `arazzo replay` share into runWorkflowFile's options:
 * the runner profile, the bindings, the inputs, the limits and the read rules. Throws usage errors (exit 2).
 */
export async function resolveSharedRunFlags(flags: SharedRunFlags, context: { env: Record<string, string | undefined>; cwd: string }) {
  const profile = resolveRunner(flags.runner, context.env);
  const binds = parseBindFlags(flags.bind, profile);
  const given = await resolveInputs({ input: flags.inputs, inputEnv: flags.inputEnv, inputsFile: flags.inputsFile }, context.env, context.cwd, profile);
  return {
    inputs: given.inputs,
    secretInputs: given.secrets,
    stringInputs: given.strings,
    workflowId: flags.workflow,
    output: flags.output,
    verbose: flags.verbose,
    quiet: flags.quiet,
    checks: flags.checks,
    maxSteps: parseCount('--tool-max-steps', flags.maxSteps, 1, 100_000_000),
    // Each nested call holds stack frames until it ends: 2000 calls overflowed Node's stack, 1000 did not.
    maxDepth: parseCount('--tool-max-depth', flags.maxDepth, 1, MAX_CALL_DEPTH),
    bodyLimit: parseCount('--tool-body-limit', flags.bodyLimit, 0, 50 * 1024 * 1024),
    allowRefHosts: await parseRefHosts(flags.allowRefHosts),
    allowRead: await (await import('./allow-read-folders.js')).checkAllowReadFolders(flags.allowRead, context.cwd),
    profile,
    binds,
  };
}
