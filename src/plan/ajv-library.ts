/**
 * The one loader of Ajv and ajv-formats, with import(): the v2 inputs schema (input-schema.ts)
 * and the response checks (src/execute/response-validators.ts) load them through here, only when
 * they run, so a run that needs neither never loads them (test/unit/run/lazy-libraries.test.ts).
 */

/** An Ajv instance, whichever dialect's class made it (they share their API). */
export type AjvInstance = InstanceType<typeof import('ajv/dist/2020.js').Ajv2020>;
export type AjvOptions = ConstructorParameters<typeof import('ajv/dist/2020.js').Ajv2020>[0];

/**
 * A new Ajv with `options`, ajv-formats' formats and OpenAPI's (`int32`, `int64`, `float`,
 * `double`, `password`): `2020-12` for JSON Schema 2020-12 (OpenAPI 3.1, Arazzo inputs), `draft-07`
 * for the OpenAPI 3.0 schema dialect (which Ajv's draft-07 class reads, `nullable` included).
 */
export async function newAjv(dialect: '2020-12' | 'draft-07', options: AjvOptions): Promise<AjvInstance> {
  const Ajv =
    dialect === '2020-12'
      ? unwrap<typeof import('ajv/dist/2020.js').Ajv2020>(await import('ajv/dist/2020.js'))
      : unwrap<typeof import('ajv/dist/2020.js').Ajv2020>(await import('ajv/dist/ajv.js'));
  const addFormats = unwrap<typeof import('ajv-formats').default>(await import('ajv-formats'));
  const ajv = new Ajv(options);
  addFormats(ajv);
  // Arazzo's (OpenAPI's) numeric formats, and password, a string shown as such.
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('password', { type: 'string', validate: () => true });
  return ajv;
}

// ajv and ajv-formats are CommonJS: Node hands their export as `default`, sometimes wrapped once more.
function unwrap<T>(module: unknown): T {
  let value = module as { default?: unknown };
  // A function (Ajv's class) is the export itself, though it also has itself as `default`.
  for (let hops = 0; hops < 3 && typeof value === 'object' && value !== null && value.default !== undefined; hops++) value = value.default as { default?: unknown };
  return value as T;
}
