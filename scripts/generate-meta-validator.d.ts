/** Types of scripts/generate-meta-validator.js, for test/unit/run/json-schema-meta.test.ts. */
export declare const META_SCHEMA_2020: string;
/** The text of src/run/json-schema-meta.generated.ts, as the script writes it from the installed Ajv. */
export declare function metaValidatorSource(): string;
