/**
 * How the `yaml` library's YAML 1.2 core schema (its default) resolves a plain scalar, shared by
 * the fast readers (parse-block.ts, and js-yaml through core-schema.ts) so that they build the
 * value `yaml` would build.
 */

// The `yaml` library's core tags, in its order (null, bool, intOct, int, intHex, floatNaN, floatExp,
// float): the first whose test matches wins. js-yaml's own CORE_SCHEMA differs (`0b11`, `1_000`,
// `-0x1F` are numbers there and strings here).
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** Marks a plain scalar that stays a string. */
export const PLAIN_STRING = Symbol('plain string');

/**
 * The value of an untagged plain scalar: null, a boolean or a number, or PLAIN_STRING when it is
 * the string itself. The same conversions as the `yaml` library's resolvers (parseInt with its
 * offset and radix, parseFloat).
 */
export function resolvePlain(source: string): unknown {
  // Only null starts with `~`, `n` or `N` (or is empty), only a boolean with `t`, `T`, `f` or `F`,
  // only a number with a sign, a dot or a digit; anything else is a string.
  switch (source.charCodeAt(0)) {
    case 0x7e:
    case 0x6e:
    case 0x4e:
      return NULL.test(source) ? null : PLAIN_STRING;
    case 0x74:
    case 0x54:
    case 0x66:
    case 0x46:
      return BOOL.test(source) ? source[0] === 't' || source[0] === 'T' : PLAIN_STRING;
    default:
      return source === '' ? null : resolveNumber(source);
  }
}

function resolveNumber(source: string): unknown {
  const first = source.charCodeAt(0);
  if (!(first === 0x2d || first === 0x2b || first === 0x2e || (first >= 0x30 && first <= 0x39))) return PLAIN_STRING;
  if (INT_OCT.test(source)) return parseInt(source.substring(2), 8);
  if (INT.test(source)) return parseInt(source, 10);
  if (INT_HEX.test(source)) return parseInt(source.substring(2), 16);
  if (FLOAT_NAN.test(source)) return source.slice(-3).toLowerCase() === 'nan' ? NaN : source[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (FLOAT_EXP.test(source) || FLOAT.test(source)) return parseFloat(source);
  return PLAIN_STRING;
}
