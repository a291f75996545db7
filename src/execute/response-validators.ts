/**
 * The schema part of response checks: each description's response schemas (its
 * `responseSchemas`, openapi/response-schemas.ts) compiled with Ajv on first use, in the
 * description's dialect (OpenAPI 3.0: Ajv's draft-07 class with `nullable`; 3.1: JSON Schema
 * 2020-12), and a body's errors turned into pointers and keywords. Ajv is loaded on the first
 * schema a run checks (plan/ajv-library.ts).
 */
import { REGEX_TIME_LIMIT_MS } from '../expressions/regex-tester.js';
import { TimeLimitError, withinTimeLimit } from '../expressions/time-limit.js';
import { escapePointerToken } from '../expressions/json-pointer.js';
import type { OpenApiDescription } from '../openapi/types.js';
import type { AjvInstance } from '../plan/ajv-library.js';

/** One way a body breaks its schema: where (RFC 6901, '' for the whole body), the keyword, Ajv's words (never the value). */
export interface SchemaError {
  pointer: string;
  keyword: string;
  message: string;
}

/** The verdict on one body: its errors (every one Ajv found), or why it could not be checked. */
export type SchemaVerdict = { errors: SchemaError[] } | { uncheckable: string };

export interface ResponseValidators {
  /** Checks `body` against the schema at `pointer` in `description`'s response schemas; undefined when there is none there (or it could not be compiled, which the first call said). */
  validate(description: OpenApiDescription, pointer: string, body: unknown): Promise<SchemaVerdict | undefined>;
}

type Validate = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Members that hold data, not schemas: left as they are by the 3.0 conversion. */
const DATA_MEMBERS = new Set(['example', 'examples', 'enum', 'const', 'default']);

/** Members that map names to schemas (and, above them in the description, responses by status: one may be `default`). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'responses', 'content', 'schemas']);

/** Response validators for one run: one Ajv per dialect, each description added once, each schema compiled once. */
export function createResponseValidators(): ResponseValidators {
  const ajvs = new Map<string, Promise<AjvInstance>>();
  const ids = new WeakMap<OpenApiDescription, string>();
  const withPatterns = new WeakSet<OpenApiDescription>();
  const pointers = new WeakMap<OpenApiDescription, Map<string, boolean>>();
  const keys = new WeakMap<OpenApiDescription, Map<string, string>>();
  const compiled = new Map<string, Validate | { uncheckable: string }>();
  const told = new Set<string>();
  let next = 0;
  const ajvFor = (dialect: '2020-12' | 'draft-07') => {
    let ajv = ajvs.get(dialect);
    if (ajv === undefined) {
      ajv = import('../plan/ajv-library.js').then((library) => library.newAjv(dialect, { allErrors: true, strict: false, logger: false, validateSchema: false, validateFormats: true }));
      ajvs.set(dialect, ajv);
    }
    return ajv;
  };
  return {
    async validate(description, pointer, body) {
      const schemas = description.responseSchemas;
      if (schemas === undefined) return undefined;
      // Looked up once per description and pointer: every later response of the operation reuses the answer.
      let present = pointers.get(description)?.get(pointer);
      if (present === undefined) {
        present = hasPointer(schemas, pointer);
        let known = pointers.get(description);
        if (known === undefined) pointers.set(description, (known = new Map()));
        known.set(pointer, present);
      }
      if (!present) return undefined;
      const is30 = description.version.startsWith('3.0');
      const ajv = await ajvFor(is30 ? 'draft-07' : '2020-12');
      let id = ids.get(description);
      if (id === undefined) {
        id = `urn:tool:response-schemas:${++next}`;
        ids.set(description, id);
        const copy = structuredClone(schemas);
        adaptSchemas(copy, is30);
        ajv.addSchema({ ...copy, $id: id });
        // Only a description's own regexes (`pattern`, `patternProperties`) can run long; the rest of a check is linear in the body.
        if (JSON.stringify(copy).includes('"pattern')) withPatterns.add(description);
      }
      let key = keys.get(description)?.get(pointer);
      if (key === undefined) {
        key = `${id}#${pointer.split('/').map(encodeURIComponent).join('/')}`;
        let known = keys.get(description);
        if (known === undefined) keys.set(description, (known = new Map()));
        known.set(pointer, key);
      }
      let validate = compiled.get(key);
      if (validate === undefined) {
        try {
          const got = ajv.getSchema(key) as Validate | undefined;
          validate = got ?? { uncheckable: 'its schema could not be found' };
        } catch (error) {
          validate = { uncheckable: `its schema does not compile: ${oneLine((error as Error).message)}` };
        }
        compiled.set(key, validate);
      }
      if (typeof validate !== 'function') {
        // Said once per run: every later response of that schema would repeat it.
        if (told.has(key)) return undefined;
        told.add(key);
        return validate;
      }
      // A description's `pattern` runs on a server's body on this thread: under the time limit of
      // the document's other regexes, so that a pattern that backtracks cannot hang the run.
      const check = validate;
      let valid: boolean;
      try {
        valid = withPatterns.has(description) ? withinTimeLimit(() => check(body) as boolean, REGEX_TIME_LIMIT_MS) : (check(body) as boolean);
      } catch (error) {
        if (!(error instanceof TimeLimitError)) throw error;
        return { uncheckable: `checking the body against its schema ${error.message}` };
      }
      if (valid) return { errors: [] };
      return { errors: (check.errors ?? []).map(schemaError) };
    },
  };
}

function schemaError(error: AjvError): SchemaError {
  // The offending member is the pointer's last token: the object's pointer alone would not say which.
  const extra = error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties' ? (error.params.additionalProperty ?? error.params.unevaluatedProperty) : undefined;
  const pointer = typeof extra === 'string' ? `${error.instancePath}/${escapePointerToken(extra)}` : error.instancePath;
  return { pointer, keyword: error.keyword, message: oneLine(error.message ?? 'does not match') };
}

function hasPointer(root: Record<string, unknown>, pointer: string): boolean {
  let at: unknown = root;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}

/**
 * Adapts the copied schemas in place (iteratively): a response never carries a `writeOnly`
 * property, so none is required; in OpenAPI 3.0, a boolean `exclusiveMinimum`/`exclusiveMaximum`
 * becomes the number draft-07 expects, and `nullable: true` also admits `null` to an `enum`.
 */
function adaptSchemas(root: unknown, is30: boolean): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
      continue;
    }
    const schema = item as Record<string, unknown>;
    if (Array.isArray(schema.required) && isObject(schema.properties)) {
      const properties = schema.properties;
      schema.required = schema.required.filter((name) => !(typeof name === 'string' && isObject(properties[name]) && properties[name].writeOnly === true));
    }
    if (is30) {
      for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
        if (typeof schema[flag] !== 'boolean') continue;
        if (schema[flag] === true && typeof schema[bound] === 'number') {
          schema[flag] = schema[bound];
          delete schema[bound];
        } else delete schema[flag];
      }
      if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
      // Ajv refuses `nullable` without `type`; such a schema admits null anyway.
      if (schema.nullable !== undefined && schema.type === undefined) delete schema.nullable;
    }
    for (const [key, child] of Object.entries(schema)) {
      // A map of schemas by name: a property may be called `default` or `example`.
      if (SCHEMA_MAPS.has(key) && isObject(child)) stack.push(...Object.values(child));
      else if (!DATA_MEMBERS.has(key) && !key.startsWith('x-')) stack.push(child);
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
