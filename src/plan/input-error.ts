/** The message of a run's inputs that do not satisfy the workflow's inputs schema (v2). */

import type { Workflow } from '../arazzo/model.js';
import { ToolError } from '../errors/tool-error.js';
import { printableLine } from '../output/printable.js';
import { isSecretName } from '../output/redact.js';
import { defsRefs, isObject, requiredOf } from './schema-lookup.js';

/** One of Ajv's errors, as far as the messages read it. */
export interface AjvProblem {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** How much of a given value a message shows. */
const SHOWN_CHARS = 40;

/**
 * INVALID_INPUTS for Ajv's first problem: every missing required input at once, or the input that
 * is wrong with the value given (quoted, cut to 40 characters; `***` for a secret-like name or a
 * value among `secrets`).
 */
export function inputError(workflow: Workflow, problem: AjvProblem | undefined, data: Record<string, unknown>, schema: Record<string, unknown>, secrets: readonly string[]): ToolError {
  const id = workflow.workflowId ?? '';
  if (problem?.keyword === 'required' && problem.instancePath === '') return missingInputs(id, missingRequired(schema, data, String(problem.params.missingProperty)));
  const path = (problem?.instancePath ?? '').split('/').slice(1).map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  const name = path[0] ?? '';
  if (name === '') return new ToolError('INVALID_INPUTS', `the inputs of workflow "${id}" ${problem?.message ?? 'do not match its inputs schema'}; nothing was sent`, 'Check the inputs against the workflow\'s inputs schema.');
  const at = path.length > 1 ? ` at /${path.slice(1).join('/')}` : '';
  const secret = isSecretName(name) || holdsSecret(data[name], secrets);
  const given = secret ? '***' : shownValue(valueAt(data, path));
  const fix = problem?.keyword === 'type' && (problem.params.type === 'object' || problem.params.type === 'array') ? `--input '${name}:=<json>'` : `--input ${name}=<value>`;
  return new ToolError('INVALID_INPUTS', `input "${name}"${at} ${problem?.message ?? 'does not match the schema'} (given: ${given}); nothing was sent`, `Give a valid value with ${fix}, or in --inputs-file.`);
}

function missingInputs(id: string, names: string[]): ToolError {
  if (names.length === 1) {
    const name = names[0]!;
    return new ToolError('INVALID_INPUTS', `input "${name}" is required by workflow "${id}"; nothing was sent`, `Give it with --input ${name}=<value> (--input '${name}:=<json>' for an object or array), or in --inputs-file.`);
  }
  const listed = names.map((name) => `"${name}"`).join(', ');
  const flags = names.map((name) => `--input ${name}=<value>`).join(' ');
  return new ToolError('INVALID_INPUTS', `inputs ${listed} are required by workflow "${id}"; nothing was sent`, `Give them with ${flags} (--input 'name:=<json>' for an object or array), or in --inputs-file.`);
}

/** Every name the schema requires at the top that the inputs lack; Ajv stops at the first (`first`), which is always among them. */
export function missingRequired(schema: Record<string, unknown>, data: Record<string, unknown>, first: string): string[] {
  const missing = requiredOf(schema, defsRefs(isObject(schema.$defs) ? schema.$defs : {})).filter((name) => !Object.hasOwn(data, name));
  return missing.includes(first) ? missing : [first];
}

function valueAt(data: Record<string, unknown>, path: string[]): unknown {
  let at: unknown = data;
  for (const part of path) at = isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[part] : undefined;
  return at;
}

function holdsSecret(value: unknown, secrets: readonly string[]): boolean {
  if (value === undefined || secrets.length === 0) return false;
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return secrets.some((secret) => secret !== '' && text.includes(secret));
}

/** `"abc"`, `42`, `{"a":1}`: at most 40 characters of it, then `…`. */
function shownValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const cut = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
  return printableLine(typeof value === 'string' ? `"${cut}"` : cut);
}
