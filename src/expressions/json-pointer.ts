/** RFC 6901 JSON pointers: parse, format and resolve. */
import { PointerSyntaxError } from './errors.js';

/** Splits a pointer into unescaped reference tokens; '' is the whole document. Throws PointerSyntaxError when it does not start with '/' or has a '~' not followed by 0 or 1. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (pointer[0] !== '/') {
    throw new PointerSyntaxError(`JSON pointer "${pointer}" must be empty or start with "/"`, pointer, 0);
  }
  const tokens: string[] = [];
  let token = '';
  for (let i = 1; i < pointer.length; i++) {
    const ch = pointer[i];
    if (ch === '/') {
      tokens.push(token);
      token = '';
    } else if (ch === '~') {
      const next = pointer[i + 1];
      if (next !== '0' && next !== '1') {
        throw new PointerSyntaxError(`JSON pointer "${pointer}" has "~" not followed by 0 or 1 (write ~0 for "~" and ~1 for "/")`, pointer, i);
      }
      token += next === '0' ? '~' : '/';
      i++;
    } else {
      token += ch;
    }
  }
  tokens.push(token);
  return tokens;
}

/** One reference token escaped for a pointer: '~' as ~0, '/' as ~1 (RFC 6901 §3). */
export function escapePointerToken(token: string): string {
  // Most tokens (keys, indices) need no escape: no new string for them.
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** One reference token of a pointer unescaped: ~1 as '/', ~0 as '~', in that order (RFC 6901 §4). */
export function unescapePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Joins reference tokens into a pointer, escaping '~' as ~0 and '/' as ~1. */
export function formatPointer(tokens: readonly string[]): string {
  let out = '';
  for (const token of tokens) out += '/' + escapePointerToken(token);
  return out;
}

// RFC 6901 array indices: no sign, no leading zeros. '-' (past the end) never resolves.
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** The value at `tokens` inside `value`, or undefined when any step is absent; never reads inherited properties. */
export function resolvePointer(value: unknown, tokens: readonly string[]): unknown {
  let current = value;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(token)) return undefined;
      const index = Number(token);
      if (index >= current.length) return undefined;
      current = current[index];
    } else if (typeof current === 'object' && current !== null) {
      if (!Object.hasOwn(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}
