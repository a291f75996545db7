/**
 * The JSON Schema 2020-12 meta-schema validator compiled at build time (src/plan/json-schema-meta.generated.ts)
 * is what scripts/generate-meta-validator.js writes from the installed Ajv, and answers as Ajv's own
 * schema check does: same verdict, same errors, on valid schemas, broken ones and thousands of mutations.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { metaValidatorSource } from '../../../scripts/generate-meta-validator.js';
import generated from '../../../src/plan/json-schema-meta.generated.js';

const require = createRequire(import.meta.url);
const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
const addFormats = (require('ajv-formats') as { default: typeof import('ajv-formats').default }).default;

type Validate = ((schema: unknown) => boolean) & { errors?: unknown[] | null };
const validateMeta = generated as unknown as Validate;

/** Ajv as src/plan/input-schema.ts made it before, which checked each schema against the meta-schema itself (validateSchema does not keep the schema). */
const reference = new Ajv2020({ allErrors: false, useDefaults: true, strict: false, validateSchema: true });
addFormats(reference);
function ajvVerdict(schema: unknown): { valid: boolean; errors: string } {
  const ajv = reference;
  const valid = ajv.validateSchema(schema as object) as boolean;
  return { valid, errors: valid ? '' : ajv.errorsText(ajv.errors) };
}

const ajvForText = new Ajv2020({ strict: false });
function generatedVerdict(schema: unknown): { valid: boolean; errors: string } {
  const valid = validateMeta(schema);
  return { valid, errors: valid ? '' : ajvForText.errorsText(validateMeta.errors as never) };
}

const VALID: unknown[] = [
  {},
  true,
  { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, size: { type: 'integer', default: 3 } } },
  { type: ['string', 'null'], enum: ['a', null], description: 'x', title: 't', examples: ['a'] },
  { type: 'array', items: { type: 'number', minimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 }, minItems: 1, uniqueItems: true, prefixItems: [{ const: 1 }] },
  { $defs: { n: { type: 'integer' } }, properties: { a: { $ref: '#/$defs/n' } }, additionalProperties: false },
  { anyOf: [{ type: 'string', pattern: '^a+$' }, { type: 'number' }], not: { const: 'x' }, if: { type: 'string' }, then: { maxLength: 3 }, else: {} },
  { type: 'object', patternProperties: { '^x-': {} }, propertyNames: { pattern: '^[a-z-]+$' }, dependentRequired: { a: ['b'] }, minProperties: 1 },
  { $id: 'urn:x', $anchor: 'here', $comment: 'c', format: 'email', contentMediaType: 'text/plain', deprecated: true, readOnly: false },
  { type: 'string', format: 'int32-not-a-format', unknownKeyword: { anything: 1 } },
];

const INVALID: unknown[] = [
  { type: 'strin' },
  { type: ['string', 'string'] },
  { required: 'name' },
  { required: [1] },
  { minimum: 'a' },
  { properties: [] },
  { properties: { a: 5 } },
  { items: [{ type: 'string' }] },
  { enum: 'x' },
  { $defs: [] },
  { pattern: 5 },
  { additionalProperties: 'no' },
  { minLength: -1 },
  { maxItems: 1.5 },
  { multipleOf: 0 },
  { uniqueItems: 'yes' },
  { $ref: 5 },
  { anyOf: [] },
  { allOf: {} },
  { properties: { deep: { properties: { deeper: { type: 'nope' } } } } },
  { dependentRequired: { a: 'b' } },
  { $id: 5 },
  { format: 7 },
  { readOnly: 'yes' },
];

describe('the JSON Schema 2020-12 meta-schema validator compiled at build time', () => {
  it('is what scripts/generate-meta-validator.js writes from the installed Ajv', () => {
    const built = readFileSync(fileURLToPath(new URL('../../../src/plan/json-schema-meta.generated.ts', import.meta.url)), 'utf8');
    // When this fails after an Ajv update: npm run build
    expect(built === metaValidatorSource()).toBe(true);
  });

  it('gives the verdict and the errors of Ajv\'s own check on valid and broken schemas', () => {
    for (const schema of VALID) expect({ schema, ...generatedVerdict(schema) }).toEqual({ schema, valid: true, errors: '' });
    for (const schema of INVALID) {
      const expected = ajvVerdict(schema);
      expect(expected.valid).toBe(false);
      expect({ schema, ...generatedVerdict(schema) }).toEqual({ schema, ...expected });
    }
  });

  it('agrees with Ajv\'s own check on 3 000 mutations of those schemas', () => {
    // A small deterministic generator, so a failure names a reproducible case.
    let seed = 2026;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const keys = ['type', 'required', 'properties', 'items', 'enum', 'minimum', 'maxLength', 'pattern', 'additionalProperties', '$defs', '$ref', 'anyOf', 'not', 'const', 'default', 'format', 'uniqueItems', 'minItems', 'dependentRequired', 'prefixItems', 'contains', 'if', '$id', 'title'];
    const values: unknown[] = [null, true, false, 0, -1, 1.5, 'string', 'object', '', 'x', [], ['a'], [1, 2], ['a', 'a'], {}, { type: 'string' }, { a: 1 }, { a: { type: 'x' } }, [{}], [{ type: 'nope' }]];
    let compared = 0;
    let invalid = 0;
    for (let i = 0; i < 3000; i++) {
      const schema = structuredClone(pick([...VALID, ...INVALID].filter((s) => typeof s === 'object'))) as Record<string, unknown>;
      // One to three edits, at the top or one level down.
      for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
        const inner = Object.values(schema).filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
        const target = inner.length > 0 && random() < 0.3 ? pick(inner) : schema;
        if (random() < 0.2) delete target[pick(Object.keys(target).concat(['type']))];
        else target[pick(keys)] = structuredClone(pick(values));
      }
      const expected = ajvVerdict(structuredClone(schema));
      const actual = generatedVerdict(structuredClone(schema));
      if (actual.valid !== expected.valid || actual.errors !== expected.errors) expect({ schema, ...actual }).toEqual({ schema, ...expected });
      compared++;
      if (!expected.valid) invalid++;
    }
    expect(compared).toBe(3000);
    // Both kinds were exercised.
    expect(invalid).toBeGreaterThan(500);
    expect(invalid).toBeLessThan(2900);
  });
});
