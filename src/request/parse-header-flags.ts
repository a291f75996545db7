/** `-H 'Name: value'` flags of the direct-call commands. */

import { CommandUsageError } from '../errors/tool-error.js';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses repeated `-H 'Name: value'` flags; a later flag for the same name (any case) replaces an
 * earlier one. Throws CommandUsageError for a flag without a colon, a bad name or a line break.
 */
export function parseHeaderFlags(flags: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const names = new Map<string, string>();
  for (const flag of flags) {
    const colon = flag.indexOf(':');
    const name = colon === -1 ? '' : flag.slice(0, colon).trim();
    if (!HEADER_NAME.test(name)) {
      throw new CommandUsageError(`-H ${JSON.stringify(flag)} is not "Name: value" with a valid header name`, "Write it as -H 'Accept: application/json' (repeat -H for each header).");
    }
    const value = flag.slice(colon + 1).trim();
    if (/[\0\r\n]/.test(value)) throw new CommandUsageError(`the value of header ${name} contains a line break or NUL`);
    const previous = names.get(name.toLowerCase());
    if (previous !== undefined) delete headers[previous];
    names.set(name.toLowerCase(), name);
    headers[name] = value;
  }
  return headers;
}

/** The value of `name` in `headers`, compared case-insensitively. */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === wanted) return headers[key];
  return undefined;
}
