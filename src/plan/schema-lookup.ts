/**
 * Reading an inputs schema: declared properties, types, required names, through `$ref`s and
 * `allOf`. `refs` says what a `$ref` names: the `$defs` of a schema made one resource
 * (`defsRefs`), or a document's `components.inputs` for the schema as written.
 */

/** What a `$ref` names, or undefined when it names nothing this reader follows. */
export type RefTarget = (ref: string) => unknown;

/** `#/$defs/<name>` refs of a schema made one resource (input-schema.ts withComponents). */
export function defsRefs(defs: Record<string, unknown>): RefTarget {
  return (ref) => (ref.startsWith('#/$defs/') ? defs[safeDecode(ref.slice('#/$defs/'.length)) ?? ''] : undefined);
}

/** `#/components/inputs/<name>` refs of a schema as the document writes it. */
export function componentRefs(components: Record<string, unknown>): RefTarget {
  return (ref) => {
    const name = ref.startsWith('#/components/inputs/') ? safeDecode(ref.slice('#/components/inputs/'.length)) : undefined;
    return name !== undefined && !name.includes('/') && Object.hasOwn(components, name) ? components[name] : undefined;
  };
}

/** How many `$ref`s and `allOf`s deep the coercion looks (the schema's own depth is capped too). */
const MAX_LOOKUP_DEPTH = 32;

/** `schema` with its `$ref`s followed, or undefined. */
export function resolved(schema: unknown, refs: RefTarget, depth: number): Record<string, unknown> | undefined {
  let at = schema;
  for (let hops = depth; isObject(at) && typeof at.$ref === 'string' && hops < MAX_LOOKUP_DEPTH; hops++) at = refs(at.$ref);
  return isObject(at) && typeof at.$ref !== 'string' ? at : undefined;
}

/** The properties a schema declares, its own and its `allOf` members', through `$ref`s; the first declaration of a name wins. */
export function propertiesOf(schema: unknown, refs: RefTarget, depth: number): Record<string, unknown> {
  const at = resolved(schema, refs, depth);
  if (at === undefined || depth > MAX_LOOKUP_DEPTH) return {};
  const properties: Record<string, unknown> = isObject(at.properties) ? { ...at.properties } : {};
  for (const member of Array.isArray(at.allOf) ? at.allOf : []) {
    for (const [name, property] of Object.entries(propertiesOf(member, refs, depth + 1))) if (!Object.hasOwn(properties, name)) properties[name] = property;
  }
  return properties;
}

/** The single type a property schema declares (through `$ref`s and `allOf`), if it declares exactly one. */
export function typeOf(property: unknown, refs: RefTarget, depth = 0): string | undefined {
  const schema = resolved(property, refs, depth);
  if (schema === undefined || depth > MAX_LOOKUP_DEPTH) return undefined;
  if (typeof schema.type === 'string') return schema.type;
  const types = new Set((Array.isArray(schema.allOf) ? schema.allOf : []).map((member) => typeOf(member, refs, depth + 1)).filter((type) => type !== undefined));
  return types.size === 1 ? [...types][0] : undefined;
}

/** The names a schema requires, its own and its `allOf` members', through `$ref`s, in the order written. */
export function requiredOf(schema: unknown, refs: RefTarget, depth = 0): string[] {
  const at = resolved(schema, refs, depth);
  if (at === undefined || depth > MAX_LOOKUP_DEPTH) return [];
  const names = Array.isArray(at.required) ? at.required.filter((name): name is string => typeof name === 'string') : [];
  for (const member of Array.isArray(at.allOf) ? at.allOf : []) names.push(...requiredOf(member, refs, depth + 1));
  return [...new Set(names)];
}

/** Whether a value is a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
