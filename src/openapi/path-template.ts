import type { PathPart } from './types.js';

/** Splits an OpenAPI path template (`/pets/{petId}`) into literal text and parameter names. */
export function compilePathTemplate(path: string): PathPart[] {
  const parts: PathPart[] = [];
  let literal = '';
  let i = 0;
  while (i < path.length) {
    const open = path.indexOf('{', i);
    const close = open === -1 ? -1 : path.indexOf('}', open + 1);
    if (open === -1 || close === -1) {
      literal += path.slice(i);
      break;
    }
    literal += path.slice(i, open);
    const name = path.slice(open + 1, close);
    if (name.length === 0) {
      literal += '{}';
    } else {
      if (literal) parts.push({ literal });
      literal = '';
      parts.push({ param: name });
    }
    i = close + 1;
  }
  if (literal) parts.push({ literal });
  return parts;
}
