/**
 * A js-yaml schema that resolves plain scalars exactly as the `yaml` library's YAML 1.2 core schema
 * does (its default), so the fast parse and the `yaml` parse build the same value.
 */
import { Schema, Type } from 'js-yaml';
import { PLAIN_STRING, resolvePlain } from './plain-scalar.js';

// js-yaml calls `resolve(text)` for an untagged plain scalar and `resolve(text, tag)` for an
// explicitly tagged node. Refusing the latter makes js-yaml throw on any tag other than `!`, since
// the schema defines no other type: the caller then takes the `yaml` path, which handles tags.
const plainScalar = new Type('tag:tool.local,2025:plain-scalar', {
  kind: 'scalar',
  resolve: (source: unknown, explicitTag?: string) => explicitTag === undefined && typeof source === 'string' && resolvePlain(source) !== PLAIN_STRING,
  construct: (source: string) => resolvePlain(source),
});

/** Strings, sequences and mappings, with the `yaml` library's core-schema plain scalars; no explicit tags. */
export const CORE_SCHEMA = new Schema({ implicit: [plainScalar] });
