/**
 * v2 inputs: the workflow's `inputs` JSON Schema (2020-12) applied before anything is sent. Ajv is
 * loaded only here, and only when a v2 run's workflow declares inputs.
 */
import type { ArazzoDocument, LoadedDocument, Workflow } from '../arazzo/model.js';
import { ToolError } from '../errors/tool-error.js';
import { REGEX_TIME_LIMIT_MS } from '../expressions/regex-tester.js';
import { TimeLimitError, withinTimeLimit } from '../expressions/time-limit.js';
import validateMetaSchemaCode from './json-schema-meta.generated.js';
import { inputError, missingRequired, type AjvProblem } from './input-error.js';
import { defsRefs, isObject, propertiesOf, typeOf } from './schema-lookup.js';

/** A schema (the workflow's, with the components it names) larger than this, as JSON, is refused. */
export const MAX_SCHEMA_CHARS = 256 * 1024;
/** A schema nested deeper than this is refused (Ajv compiles recursively). */
export const MAX_SCHEMA_DEPTH = 64;

/**
 * How long checking a run's or a call's inputs against the schema may take: the regex limit, since
 * what can take long is a `pattern` (or `patternProperties`, or a format's regex) that backtracks
 * without end, such as `^(a|a)+$` on 56 characters.
 */
export const INPUT_CHECK_LIMIT_MS = REGEX_TIME_LIMIT_MS;

const COMPONENT_REF = /^#\/components\/inputs\/([^/]+)(\/.*)?$/;
const DEFS_PREFIX = 'arazzo-components-inputs-';

/** Where each input came from: names given as strings by --input or --input-env (coerced to the declared type). */
export interface InputOrigins {
  strings: ReadonlySet<string>;
  /** Values a message shows as `***`: those of --input-env and of secret-like inputs (docs/run.md#inputs). */
  secrets?: readonly string[];
}

/**
 * The run's inputs checked against the workflow's `inputs` schema: strings given on the command
 * line coerced to a declared integer, number or boolean, defaults filled in. Returns them unchanged
 * when the workflow declares no schema. Throws ToolError INVALID_INPUTS (exit 2) naming the input and
 * the flag that fixes it, or INPUT_SCHEMA_INVALID (exit 10) with the schema's location.
 */
export async function applyInputSchema(doc: LoadedDocument, workflow: Workflow, inputs: Record<string, unknown>, origins: InputOrigins): Promise<Record<string, unknown>> {
  const check = await compileInputSchema(doc, workflow);
  if (check === undefined) return inputs;
  return checkInputs(doc, workflow, check, inputs, origins);
}

/**
 * applyInputSchema with the schema compiled once (compileInputSchema), for many runs of one
 * workflow (`arazzo test --data`, a check per row). Throws as applyInputSchema does.
 */
export function checkInputs(doc: LoadedDocument, workflow: Workflow, check: InputCheck, inputs: Record<string, unknown>, origins: InputOrigins): Record<string, unknown> {
  const checked = check(coercedFor(check.schema, inputs, origins));
  if ('inputs' in checked) return checked.inputs;
  if ('stopped' in checked) {
    throw new ToolError(
      'INPUT_SCHEMA_INVALID',
      `${located(doc, `${workflow.pointer}/inputs`)}: the inputs schema of workflow "${workflow.workflowId ?? ''}" could not check the inputs: ${checked.stopped}; nothing was sent`,
      'Write a pattern that cannot backtrack without end (such as ^a+$ for ^(a|a)+$), or give an input it checks quickly.',
    );
  }
  throw inputError(workflow, checked.problem, checked.data, check.schema, origins.secrets ?? []);
}

/** What checking inputs gives: the inputs (a copy with the defaults), the first problem, or why the check was stopped. */
export type InputCheckResult = { inputs: Record<string, unknown> } | { problem: AjvProblem | undefined; data: Record<string, unknown> } | { stopped: string };

/**
 * A compiled inputs schema: checks inputs (a copy gets the defaults), or says the first problem.
 * The check runs under INPUT_CHECK_LIMIT_MS: a document's pattern that backtracks without end is
 * stopped (`stopped` says which pattern, on which input) instead of blocking the run past Ctrl-C.
 */
export type InputCheck = ((inputs: Record<string, unknown>) => InputCheckResult) & { schema: Record<string, unknown> };

/**
 * Compiles the workflow's `inputs` schema once (undefined when it declares none). Throws ToolError
 * INPUT_SCHEMA_INVALID (exit 10) with the schema's location.
 */
export async function compileInputSchema(doc: LoadedDocument, workflow: Workflow): Promise<InputCheck | undefined> {
  if (workflow.inputs === undefined || workflow.inputs === null) return undefined;
  // Worked out only for a message: a position needs the document's source map, which reads the
  // whole text again with the `yaml` library (~60 ms for a 100-step document).
  const where = () => located(doc, `${workflow.pointer}/inputs`);
  const schema = withComponents(workflow.inputs, doc.model, where);
  const plain = isPlain2020(schema);
  // A plain schema: the shared Ajv, and the meta-schema validator compiled at build time. Any
  // other: an Ajv of its own that checks the schema itself (validateSchema), as every schema had.
  const ajv = plain ? await (sharedAjv ??= newAjv(false)) : await newAjv(true);
  let validate: ReturnType<typeof ajv.compile>;
  try {
    if (plain && !validateMetaSchema(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(validateMetaSchema.errors)}`);
    validate = ajv.compile(schema);
  } catch (error) {
    ajv.removeSchema(schema);
    throw new ToolError('INPUT_SCHEMA_INVALID', `${where()}: the inputs schema of workflow "${workflow.workflowId ?? ''}" is not valid JSON Schema 2020-12: ${(error as Error).message}`, 'Fix the schema (tool arazzo validate shows the document).');
  }
  // The compiled function stays; the shared Ajv forgets the schema, so the next one starts as this one did.
  ajv.removeSchema(schema);
  const watch = watches.get(ajv);
  const check = (inputs: Record<string, unknown>): InputCheckResult => {
    // Ajv writes defaults into the data at any depth: a deep copy keeps the caller's values (a step's outputs, the run's inputs) as they were.
    const data: Record<string, unknown> = structuredClone(inputs);
    if (watch) watch.pattern = watch.text = undefined;
    let valid: boolean;
    try {
      valid = withinTimeLimit(() => validate(data) as boolean, INPUT_CHECK_LIMIT_MS);
    } catch (error) {
      if (!(error instanceof TimeLimitError)) throw error;
      return { stopped: stoppedCheck(error, watch, data) };
    }
    return valid ? { inputs: data } : { problem: validate.errors?.[0] as AjvProblem | undefined, data };
  };
  return Object.assign(check, { schema });
}

type Ajv = InstanceType<typeof import('ajv/dist/2020.js').Ajv2020>;

/** The regex an Ajv tested last, and on what: named when the time limit stops a check. */
interface RegexWatch {
  pattern?: string;
  text?: string;
}

const watches = new WeakMap<Ajv, RegexWatch>();

/** Why a check was stopped: the pattern being tested, and the input it was testing when that input is a top-level string. */
function stoppedCheck(error: TimeLimitError, watch: RegexWatch | undefined, data: Record<string, unknown>): string {
  const limit = `${error.limitMs / 1000} s`;
  if (watch?.pattern === undefined || watch.text === undefined) return `checking them ran for more than ${limit} and was stopped`;
  const text = watch.text;
  const input = Object.entries(data).find(([, value]) => value === text)?.[0];
  const on = input === undefined ? `a text of ${text.length} characters` : `input "${input}" (${text.length} characters)`;
  return `its pattern ${JSON.stringify(watch.pattern)} ran for more than ${limit} on ${on} and was stopped (a pattern that backtracks without end never finishes)`;
}

/**
 * The Ajv that compiles the plain schemas (isPlain2020) of every workflow of the run: one Ajv per
 * workflow with inputs cost ~10 ms each (with its formats). Each schema is removed from it once
 * compiled, and a plain schema can refer to nothing but itself, so no schema reaches another.
 */
let sharedAjv: Promise<Ajv> | undefined;

/** An Ajv with tool's options and formats; `checksSchemas`: it checks each schema against its meta-schema itself (compiling that meta-schema first, ~80 ms). */
async function newAjv(checksSchemas: boolean): Promise<Ajv> {
  // Every regex the schema tests goes through this engine, which notes what it tests: when the time
  // limit stops a check, the message names the pattern and the input.
  const watch: RegexWatch = {};
  const regExp = Object.assign(
    (pattern: string, flags: string) => {
      const compiled = new RegExp(pattern, flags);
      return {
        test(text: string): boolean {
          watch.pattern = pattern;
          watch.text = text;
          return compiled.test(text);
        },
        // Ajv keeps one engine object per distinct toString().
        toString: () => compiled.toString(),
      };
    },
    { code: 'new RegExp' },
  );
  const library = await import('./ajv-library.js');
  const ajv = await library.newAjv('2020-12', { allErrors: false, useDefaults: true, strict: false, validateSchema: checksSchemas, code: { regExp } });
  watches.set(ajv, watch);
  return ajv;
}

const META_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The JSON Schema 2020-12 meta-schema validator Ajv would compile, compiled at build time
 * (scripts/generate-meta-validator.js), with the type Ajv gives a validate function.
 */
const validateMetaSchema = validateMetaSchemaCode as unknown as ((schema: unknown) => boolean) & { errors?: Parameters<Ajv['errorsText']>[0] };

/** Keywords that name a resource another part of a schema (or another schema) could refer to. */
const RESOURCE_KEYWORDS = new Set(['$id', '$anchor', '$dynamicAnchor']);

/**
 * Whether the schema is of JSON Schema 2020-12 (no `$schema`, or exactly that meta-schema's URI)
 * and self-contained: no key names a resource and every `$ref` and `$dynamicRef` is a fragment
 * (`#…`). withComponents' result is plain JSON, at most MAX_SCHEMA_DEPTH deep.
 */
function isPlain2020(schema: Record<string, unknown>): boolean {
  if (schema.$schema !== undefined && schema.$schema !== META_SCHEMA_2020) return false;
  const selfContained = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.every(selfContained);
    if (!isObject(value)) return true;
    for (const key of Object.keys(value)) {
      if (RESOURCE_KEYWORDS.has(key)) return false;
      if ((key === '$ref' || key === '$dynamicRef') && !(typeof value[key] === 'string' && value[key].startsWith('#'))) return false;
      if (!selfContained(value[key])) return false;
    }
    return true;
  };
  return selfContained(schema);
}

/**
 * Why a nested call's inputs do not satisfy the called workflow's schema, one line: the step fails
 * with it (the fix is in the calling step's parameters, not on the command line).
 */
export function callInputsProblem(workflowId: string, problem: AjvProblem | undefined, schema: Record<string, unknown> = {}, data: Record<string, unknown> = {}): string {
  if (problem?.keyword === 'required' && problem.instancePath === '') {
    // Every required input the call lacks, not only the first Ajv stopped at.
    const names = missingRequired(schema, data, String(problem.params.missingProperty));
    if (names.length > 1) return `workflow "${workflowId}" requires inputs ${names.map((name) => `"${name}"`).join(', ')}: pass each as a parameter of that name of the calling step`;
    const name = names[0]!;
    return `workflow "${workflowId}" requires input "${name}": pass it as a parameter named "${name}" of the calling step`;
  }
  const at = problem?.instancePath ? ` ${problem.instancePath}` : '';
  return `workflow "${workflowId}": input${at} ${problem?.message ?? 'does not match its inputs schema'}`;
}

/**
 * Command-line strings turned into the integer, number or boolean the schema declares for them
 * (top-level inputs only). The properties are read through `$ref`s (an inputs schema written as
 * `$ref: '#/components/inputs/…'`, as the official examples do) and `allOf`.
 */
function coercedFor(schema: Record<string, unknown>, inputs: Record<string, unknown>, origins: InputOrigins): Record<string, unknown> {
  const refs = defsRefs(isObject(schema.$defs) ? schema.$defs : {});
  const properties = propertiesOf(schema, refs, 0);
  const out: Record<string, unknown> = { ...inputs };
  for (const [name, value] of Object.entries(inputs)) {
    if (typeof value !== 'string' || !origins.strings.has(name) || !Object.hasOwn(properties, name)) continue;
    const declared = typeOf(properties[name], refs);
    if (declared === 'integer' && /^-?\d+$/.test(value.trim())) out[name] = Number(value.trim());
    else if (declared === 'number' && /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value.trim())) out[name] = Number(value.trim());
    else if (declared === 'boolean' && (value === 'true' || value === 'false')) out[name] = value === 'true';
  }
  return out;
}

/**
 * The workflow's schema as one resource: `#/components/inputs/<name>` refs (in it and in the
 * components) rewritten into its `$defs`. Throws INPUT_SCHEMA_INVALID when it is not an object, is
 * too large or too deep, or names a component that does not exist.
 */
function withComponents(schema: unknown, doc: ArazzoDocument, where: () => string): Record<string, unknown> {
  const refuse = (why: string) => new ToolError('INPUT_SCHEMA_INVALID', `${where()}: the inputs schema ${why}`, 'Fix the schema (tool arazzo validate shows the document).');
  if (!isObject(schema)) throw refuse('is not an object');
  const components = (isObject(doc.components?.inputs) ? doc.components.inputs : {}) as Record<string, unknown>;
  const used = new Set<string>();
  const rewrite = (value: unknown, depth: number): unknown => {
    if (depth > MAX_SCHEMA_DEPTH) throw refuse(`is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    if (Array.isArray(value)) return value.map((item) => rewrite(item, depth + 1));
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const match = key === '$ref' && typeof item === 'string' ? COMPONENT_REF.exec(item) : null;
      if (match) {
        const name = decodeURIComponent(match[1]!);
        if (!Object.hasOwn(components, name)) throw refuse(`refers to "${item}", which components.inputs does not define`);
        used.add(name);
        out[key] = `#/$defs/${DEFS_PREFIX}${match[1]}${match[2] ?? ''}`;
      } else {
        out[key] = rewrite(item, depth + 1);
      }
    }
    return out;
  };
  const root = rewrite(schema, 0) as Record<string, unknown>;
  const defs: Record<string, unknown> = isObject(root.$defs) ? { ...root.$defs } : {};
  const done = new Set<string>();
  for (let pending = [...used]; pending.length > 0; pending = [...used].filter((name) => !done.has(name))) {
    for (const name of pending) {
      done.add(name);
      defs[`${DEFS_PREFIX}${name}`] = rewrite(components[name], 1);
    }
  }
  if (Object.keys(defs).length > 0) root.$defs = defs;
  if (JSON.stringify(root).length > MAX_SCHEMA_CHARS) throw refuse(`is larger than ${MAX_SCHEMA_CHARS / 1024} KiB`);
  return root;
}

function located(doc: LoadedDocument, pointer: string): string {
  const position = doc.locate(pointer);
  return position ? `${doc.file}:${position.line}:${position.col}` : `${doc.file}#${pointer}`;
}
