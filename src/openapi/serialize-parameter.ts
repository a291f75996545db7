import { encodeAllowReserved, encodeComponent, encodeCookieValue, encodeUnreserved } from './percent-encode.js';
import { isPlainObject, leafText, shapeOf, type ValueShape } from './value-shape.js';

/*
 * OpenAPI 3.x parameter styles (RFC 6570 where the spec defers to it). Label with explode false
 * uses commas after the dot, as corrected in OpenAPI 3.0.4/3.1.1 (`.blue,black,brown`).
 */

/** The text that replaces `{name}` in the path: styles simple (default), label and matrix. */
export function serializePath(name: string, value: unknown, style = 'simple', explode = false): string {
  const shape = shapeOf(value);
  const e = encodeUnreserved;
  switch (style) {
    case 'label': {
      if (shape.kind === 'empty') return '.';
      if (shape.kind === 'primitive') return `.${e(shape.text)}`;
      if (shape.kind === 'array') return `.${shape.items.map(e).join(explode ? '.' : ',')}`;
      return `.${explode ? shape.entries.map(([k, v]) => `${e(k)}=${e(v)}`).join('.') : flat(shape.entries, e).join(',')}`;
    }
    case 'matrix': {
      const n = e(name);
      if (shape.kind === 'empty') return `;${n}`;
      if (shape.kind === 'primitive') return `;${n}=${e(shape.text)}`;
      if (shape.kind === 'array') {
        return explode ? shape.items.map((item) => `;${n}=${e(item)}`).join('') : `;${n}=${shape.items.map(e).join(',')}`;
      }
      return explode ? shape.entries.map(([k, v]) => `;${e(k)}=${e(v)}`).join('') : `;${n}=${flat(shape.entries, e).join(',')}`;
    }
    default:
      return simple(shape, explode, e);
  }
}

/**
 * The `name=value` pairs a query parameter contributes, already encoded: styles form (default),
 * spaceDelimited, pipeDelimited and deepObject. Unusable combinations fall back to form.
 */
export function serializeQuery(name: string, value: unknown, style = 'form', explode = style === 'form', allowReserved = false): string[] {
  const ev = allowReserved ? encodeAllowReserved : encodeComponent;
  const n = encodeComponent(name);
  if (style === 'deepObject' && isPlainObject(value)) return deepObject(n, value, ev);
  const shape = shapeOf(value);
  if (!explode && (shape.kind === 'array' || shape.kind === 'object')) {
    const delimiter = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
    const items = shape.kind === 'array' ? shape.items : flat(shape.entries, (s) => s);
    return [`${n}=${items.map(ev).join(delimiter)}`];
  }
  if (shape.kind === 'empty') return [`${n}=`];
  if (shape.kind === 'primitive') return [`${n}=${ev(shape.text)}`];
  if (shape.kind === 'array') return shape.items.map((item) => `${n}=${ev(item)}`);
  return shape.entries.map(([k, v]) => `${encodeComponent(k)}=${ev(v)}`);
}

/** A header value: style simple; headers are not percent-encoded. */
export function serializeHeader(value: unknown, explode = false): string {
  return simple(shapeOf(value), explode, (s) => s);
}

/** The `name=value` cookie pairs of a cookie parameter: style form (explode true by default). */
export function serializeCookie(name: string, value: unknown, explode = true): string[] {
  const shape = shapeOf(value);
  const c = encodeCookieValue;
  if (shape.kind === 'empty') return [`${name}=`];
  if (shape.kind === 'primitive') return [`${name}=${c(shape.text)}`];
  if (shape.kind === 'array') {
    return explode ? shape.items.map((item) => `${name}=${c(item)}`) : [`${name}=${shape.items.map(c).join(',')}`];
  }
  return explode ? shape.entries.map(([k, v]) => `${k}=${c(v)}`) : [`${name}=${flat(shape.entries, c).join(',')}`];
}

function simple(shape: ValueShape, explode: boolean, e: (s: string) => string): string {
  if (shape.kind === 'empty') return '';
  if (shape.kind === 'primitive') return e(shape.text);
  if (shape.kind === 'array') return shape.items.map(e).join(',');
  return explode ? shape.entries.map(([k, v]) => `${e(k)}=${e(v)}`).join(',') : flat(shape.entries, e).join(',');
}

/** `{R:100,G:200}` -> `['R','100','G','200']`, each encoded. */
function flat(entries: Array<[string, string]>, e: (s: string) => string): string[] {
  const out: string[] = [];
  for (const [k, v] of entries) out.push(e(k), e(v));
  return out;
}

/** `color[R]=100&color[G]=200`; nested objects nest brackets, arrays repeat the key. */
function deepObject(key: string, value: Record<string, unknown>, ev: (s: string) => string, out: string[] = []): string[] {
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const path = `${key}[${encodeComponent(k)}]`;
    if (isPlainObject(v)) deepObject(path, v, ev, out);
    else if (Array.isArray(v)) for (const element of v) out.push(`${path}=${ev(leafText(element))}`);
    else out.push(`${path}=${ev(leafText(v))}`);
  }
  return out;
}
