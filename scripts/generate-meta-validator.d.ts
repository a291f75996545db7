/** Types of scripts/generate-meta-validator.js, for test/unit/plan/json-schema-meta.test.ts. */
export declare const META_SCHEMA_2020: string;
/** The text of src/plan/json-schema-meta.generated.ts, as the script writes it from the installed Ajv. */
export declare function metaValidatorSource(): string;
