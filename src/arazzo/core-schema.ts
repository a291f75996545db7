/**
 * A js-yaml schema that resolves plain scalars exactly as the `yaml` library's YAML 1.2 core schema
 * does (its default), so the fast parse and the `yaml` parse build the same value.
 */
import { Schema, Type } from 'js-yaml';

// The `yaml` library's core tags, in its order (null, bool, intOct, int, intHex, floatNaN, floatExp,
// float): the first whose test matches wins. js-yaml's own CORE_SCHEMA differs (`0b11`, `1_000`,
// `-0x1F` are numbers there and strings here), hence this schema.
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
// Every non-string plain scalar starts with one of these; any other first character is a string.
const FIRST = /^[-+.0-9~nNtTfF]/;

const STRING = Symbol('string');

// The same conversions as the `yaml` library's resolvers (parseInt with its offset and radix, parseFloat).
function resolvePlain(source: string): unknown {
  if (source !== '' && !FIRST.test(source)) return STRING;
  if (NULL.test(source)) return null;
  if (BOOL.test(source)) return source[0] === 't' || source[0] === 'T';
  if (INT_OCT.test(source)) return parseInt(source.substring(2), 8);
  if (INT.test(source)) return parseInt(source, 10);
  if (INT_HEX.test(source)) return parseInt(source.substring(2), 16);
  if (FLOAT_NAN.test(source)) return source.slice(-3).toLowerCase() === 'nan' ? NaN : source[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (FLOAT_EXP.test(source) || FLOAT.test(source)) return parseFloat(source);
  return STRING;
}

// js-yaml calls `resolve(text)` for an untagged plain scalar and `resolve(text, tag)` for an
// explicitly tagged node. Refusing the latter makes js-yaml throw on any tag other than `!`, since
// the schema defines no other type: the caller then takes the `yaml` path, which handles tags.
const plainScalar = new Type('tag:tool.local,2025:plain-scalar', {
  kind: 'scalar',
  resolve: (source: unknown, explicitTag?: string) => explicitTag === undefined && typeof source === 'string' && resolvePlain(source) !== STRING,
  construct: (source: string) => resolvePlain(source),
});

/** Strings, sequences and mappings, with the `yaml` library's core-schema plain scalars; no explicit tags. */
export const CORE_SCHEMA = new Schema({ implicit: [plainScalar] });
