/**
 * JSON text for values of any depth. JSON.stringify recurses once per level and overflows the
 * stack a few thousand levels down; a response body can nest far deeper than that.
 */

export type JsonReplacer = (this: unknown, key: string, value: unknown) => unknown;

/** Past this many levels the iterative writer stops indenting: 20,000 indented levels are 400 MB of spaces. */
export const MAX_INDENTED_DEPTH = 1000;

/**
 * Whether `error` is V8 running out of stack (a RangeError). Compared by name, not instanceof: the
 * error can come from another realm (a library loaded by a test runner's module linker).
 */
export function isStackOverflow(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'RangeError';
}

/**
 * JSON.stringify(value, replacer, indent), falling back to an iterative writer when the value
 * nests too deep for the native one. The fallback writes the same text, except that levels past
 * MAX_INDENTED_DEPTH are not indented. Throws what JSON.stringify throws for cycles and BigInts.
 */
export function stringifyJson(value: unknown, replacer?: JsonReplacer, indent?: number): string | undefined {
  try {
    return JSON.stringify(value, replacer, indent);
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    return writeJsonIteratively(value, replacer, indent);
  }
}

interface Frame {
  value: Record<string, unknown>;
  /** Keys of an object; undefined for an array. */
  keys: string[] | undefined;
  length: number;
  next: number;
  depth: number;
  wrote: boolean;
}

/** JSON.stringify's algorithm (toJSON, replacer, omitted members) with an explicit stack instead of recursion. */
export function writeJsonIteratively(root: unknown, replacer?: JsonReplacer, indent?: number): string | undefined {
  const gap = indent === undefined || indent < 1 ? '' : ' '.repeat(Math.min(10, Math.floor(indent)));
  const first = prepare({ '': root }, '', root, replacer);
  if (!isContainer(first)) return primitive(first);
  const stack: Frame[] = [];
  const ancestors = new Set<object>();
  let text = '';
  const open = (value: object, depth: number): void => {
    if (ancestors.has(value)) throw new TypeError('Converting circular structure to JSON');
    ancestors.add(value);
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    stack.push({ value: value as Record<string, unknown>, keys, length: keys ? keys.length : (value as unknown[]).length, next: 0, depth, wrote: false });
    text += keys ? '{' : '[';
  };
  const newline = (depth: number): string => (gap !== '' && depth <= MAX_INDENTED_DEPTH ? `\n${gap.repeat(depth)}` : '');

  open(first, 0);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next === frame.length) {
      stack.pop();
      ancestors.delete(frame.value);
      // A container whose members were written on their own lines closes on its own line too.
      const indented = frame.wrote && frame.depth < MAX_INDENTED_DEPTH;
      text += `${indented ? newline(frame.depth) : ''}${frame.keys ? '}' : ']'}`;
      continue;
    }
    const index = frame.next++;
    const key = frame.keys ? (frame.keys[index] as string) : String(index);
    const value = prepare(frame.value, key, frame.value[key], replacer);
    const container = isContainer(value);
    let leaf = container ? undefined : primitive(value);
    if (!container && leaf === undefined) {
      // Objects leave out members with no JSON form; arrays write null in their place.
      if (frame.keys) continue;
      leaf = 'null';
    }
    text += `${frame.wrote ? ',' : ''}${newline(frame.depth + 1)}`;
    frame.wrote = true;
    if (frame.keys) text += `${JSON.stringify(key)}:${gap !== '' && frame.depth < MAX_INDENTED_DEPTH ? ' ' : ''}`;
    if (container) open(value, frame.depth + 1);
    else text += leaf;
  }
  return text;
}

function prepare(holder: unknown, key: string, value: unknown, replacer: JsonReplacer | undefined): unknown {
  let current = value;
  if ((typeof current === 'object' && current !== null) || typeof current === 'bigint') {
    const toJSON = (current as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') current = toJSON.call(current, key);
  }
  return replacer ? replacer.call(holder, key, current) : current;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function primitive(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      return value === null ? 'null' : undefined;
  }
}
