/** Minimal ANSI styling for stderr; every function is the identity when colours are off. */
export interface Style {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const identity = (s: string) => s;

const COLORED: Style = {
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
  dim: wrap(2, 22),
  bold: wrap(1, 22),
};
const PLAIN: Style = { red: identity, green: identity, yellow: identity, cyan: identity, dim: identity, bold: identity };

/** The style for a stream that does (or does not) take colours. */
export function styleFor(colors: boolean): Style {
  return colors ? COLORED : PLAIN;
}
