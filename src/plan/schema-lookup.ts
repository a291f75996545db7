/** Reading an inputs schema (one resource, its `$ref`s into `$defs`): declared properties, types, required names. */

/** How many `$ref`s and `allOf`s deep the coercion looks (the schema's own depth is capped too). */
const MAX_LOOKUP_DEPTH = 32;

/** `schema` with its `$ref`s into `$defs` followed (the whole schema is one resource by now), or undefined. */
export function resolved(schema: unknown, defs: Record<string, unknown>, depth: number): Record<string, unknown> | undefined {
  let at = schema;
  for (let hops = depth; isObject(at) && typeof at.$ref === 'string' && hops < MAX_LOOKUP_DEPTH; hops++) {
    if (!at.$ref.startsWith('#/$defs/')) return undefined;
    at = defs[decodeURIComponent(at.$ref.slice('#/$defs/'.length))];
  }
  return isObject(at) && typeof at.$ref !== 'string' ? at : undefined;
}

/** The properties a schema declares, its own and its `allOf` members', through `$ref`s; the first declaration of a name wins. */
export function propertiesOf(schema: unknown, defs: Record<string, unknown>, depth: number): Record<string, unknown> {
  const at = resolved(schema, defs, depth);
  if (at === undefined || depth > MAX_LOOKUP_DEPTH) return {};
  const properties: Record<string, unknown> = isObject(at.properties) ? { ...at.properties } : {};
  for (const member of Array.isArray(at.allOf) ? at.allOf : []) {
    for (const [name, property] of Object.entries(propertiesOf(member, defs, depth + 1))) if (!Object.hasOwn(properties, name)) properties[name] = property;
  }
  return properties;
}

/** The single type a property schema declares (through `$ref`s and `allOf`), if it declares exactly one. */
export function typeOf(property: unknown, defs: Record<string, unknown>, depth = 0): string | undefined {
  const schema = resolved(property, defs, depth);
  if (schema === undefined || depth > MAX_LOOKUP_DEPTH) return undefined;
  if (typeof schema.type === 'string') return schema.type;
  const types = new Set((Array.isArray(schema.allOf) ? schema.allOf : []).map((member) => typeOf(member, defs, depth + 1)).filter((type) => type !== undefined));
  return types.size === 1 ? [...types][0] : undefined;
}

/** The names a schema requires, its own and its `allOf` members', through `$ref`s, in the order written. */
export function requiredOf(schema: unknown, defs: Record<string, unknown>, depth = 0): string[] {
  const at = resolved(schema, defs, depth);
  if (at === undefined || depth > MAX_LOOKUP_DEPTH) return [];
  const names = Array.isArray(at.required) ? at.required.filter((name): name is string => typeof name === 'string') : [];
  for (const member of Array.isArray(at.allOf) ? at.allOf : []) names.push(...requiredOf(member, defs, depth + 1));
  return [...new Set(names)];
}

/** Whether a value is a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
