import { MAX_DOCUMENT_DEPTH, overDeepPointer } from '../arazzo/check-depth.js';
import { DEFAULT_PROFILE, type RunnerProfile } from '../arazzo/runner-profile.js';
import { CommandUsageError } from '../errors/tool-error.js';

/** Most characters of a `--input k:=<json>` value. */
const MAX_JSON_INPUT_CHARS = 1024 * 1024;

/**
 * Parses repeated `--input key=value` flags into a map; a flag without `=` or with an empty key is
 * a usage error. With a profile that types inputs (v2), `--input key:=<json>` gives a JSON value
 * (an invalid one is a usage error); otherwise `key:` stays the name, as it always has in v1.
 */
export function parseInputFlags(flags: readonly string[], profile: RunnerProfile = DEFAULT_PROFILE): Record<string, unknown> {
  const inputs: Record<string, unknown> = Object.create(null);
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    if (eq <= 0) {
      throw new CommandUsageError(`--input ${JSON.stringify(flag)} is not key=value`, 'Write it as --input petId=42 (repeat --input for each input).');
    }
    if (profile.typesInputs && flag[eq - 1] === ':' && eq > 1) {
      inputs[flag.slice(0, eq - 1)] = parseJsonInput(flag.slice(0, eq - 1), flag.slice(eq + 1));
      continue;
    }
    inputs[flag.slice(0, eq)] = flag.slice(eq + 1);
  }
  return { ...inputs };
}

function parseJsonInput(name: string, text: string): unknown {
  const hint = `Write it as JSON: --input '${name}:={"a": 1}', --input '${name}:=[1, 2]', --input ${name}:=true (or --input ${name}=text for a string).`;
  if (text.length > MAX_JSON_INPUT_CHARS) throw new CommandUsageError(`--input ${name}:= is longer than 1 MiB`, 'Pass large values with --inputs-file.');
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    // The value may be a secret: the message names the input, never the text.
    throw new CommandUsageError(`--input ${name}:= is not valid JSON (${(error as Error).message.replace(/ in JSON at .*$|, ".*$/s, '')})`, hint);
  }
  // A value nested without end would overflow the stack of whatever walks it later (the schema
  // check, templates, the record): refused here, with the document's own limit.
  if (overDeepPointer(value) !== undefined) {
    throw new CommandUsageError(`--input ${name}:= nests deeper than ${MAX_DOCUMENT_DEPTH} levels`, 'Inputs are values for a workflow; pass a flatter value.');
  }
  return value;
}

/** The inputs of a run and the values that must never be printed. */
export interface RunInputs {
  inputs: Record<string, unknown>;
  /** Values of --input-env inputs, and string values of inputs with secret-like names (password, token...). */
  secrets: string[];
  /** Names whose value is a command-line string (--input k=v, --input-env): v2 coerces them to the declared type. */
  strings: string[];
}

/** The input flags of `tool arazzo run`, as given. */
export interface InputFlags {
  input: readonly string[];
  inputEnv: readonly string[];
  inputsFile?: string;
}

/**
 * The run's inputs: `--inputs-file` first, then `--input` and `--input-env` over it. Throws
 * CommandUsageError (exit 2) for a malformed flag, an unset variable or a name given by both
 * --input and --input-env; FileError (exit 2, file:line:col) for a bad inputs file.
 */
export async function resolveInputs(flags: InputFlags, env: Record<string, string | undefined>, cwd: string, profile: RunnerProfile = DEFAULT_PROFILE): Promise<RunInputs> {
  const given = parseInputFlags(flags.input, profile);
  const fromEnv = parseInputEnvFlags(flags.inputEnv, env);
  for (const name of Object.keys(fromEnv)) {
    if (Object.hasOwn(given, name)) throw new CommandUsageError(`input "${name}" is given by both --input and --input-env`, 'Give each input once.');
  }
  const fromFile = flags.inputsFile === undefined ? {} : await (await import('./read-inputs-file.js')).readInputsFile(flags.inputsFile, cwd);
  const inputs = { ...fromFile, ...given, ...fromEnv };
  const { isSecretName } = await import('../output/redact.js');
  const secrets = Object.values(fromEnv);
  secrets.push(...secretNamedStrings(inputs, isSecretName));
  const strings = [...Object.keys(given).filter((name) => typeof given[name] === 'string'), ...Object.keys(fromEnv)];
  return { inputs, secrets, strings };
}

/** Parses repeated `--input-env name=VAR` flags: each input's value is read from the environment variable VAR; an unset one is a usage error. */
export function parseInputEnvFlags(flags: readonly string[], env: Record<string, string | undefined>): Record<string, string> {
  const inputs: Record<string, string> = Object.create(null);
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    const variable = flag.slice(eq + 1);
    if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
      throw new CommandUsageError(`--input-env ${JSON.stringify(flag)} is not name=VARIABLE`, 'Write it as --input-env token=API_TOKEN (the value is read from $API_TOKEN).');
    }
    const value = env[variable];
    if (value === undefined) throw new CommandUsageError(`--input-env ${flag.slice(0, eq)}: the environment variable ${variable} is not set`, `Set it first: export ${variable}=...`);
    inputs[flag.slice(0, eq)] = value;
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

/**
 * The string values found under a secret-like name anywhere in `inputs` (`auth: {token: …}`
 * included), and every string inside a secret-named object or array. Iterative: an inputs file
 * may nest deep.
 */
export function secretNamedStrings(inputs: Record<string, unknown>, isSecretName: (name: string) => boolean): string[] {
  const found: string[] = [];
  const stack: Array<{ value: unknown; secret: boolean }> = [{ value: inputs, secret: false }];
  while (stack.length > 0) {
    const { value, secret } = stack.pop()!;
    if (typeof value === 'string') {
      if (secret) found.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, secret });
    } else if (value !== null && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) stack.push({ value: item, secret: secret || isSecretName(name) });
    }
  }
  return found;
}
