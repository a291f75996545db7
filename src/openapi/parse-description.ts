import { containsRef, dereference, type DereferenceOptions } from './dereference.js';
import { DescriptionError } from './errors.js';
import { indexOperations } from './index-operations.js';
import { parseText } from './parse-text.js';
import { collectResponseSchemas } from './response-schemas.js';
import { serverUrls } from './servers.js';
import type { OpenApiDescription, Operation } from './types.js';

const SUPPORTED_VERSION = /^3\.[01](?:\.|$)/;

/**
 * Parses an OpenAPI 3.0/3.1 description (YAML or JSON text), resolves its `$ref`s against
 * `location` (a file path or http(s) URL) and indexes its operations by operationId (those
 * without one are kept apart, for operationPath).
 * Throws DescriptionError: DESCRIPTION_INVALID for syntax errors, Swagger 2.0 or other versions
 * and malformed operations; DESCRIPTION_REF for a `$ref` that does not resolve.
 */
export async function parseDescription(text: string, location: string, options: DereferenceOptions = {}): Promise<OpenApiDescription> {
  const data = parseText(text, location);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new DescriptionError('DESCRIPTION_INVALID', location, `${location}: not an OpenAPI description (the top level must be a mapping); check the source description url`);
  }
  const version = checkVersion(data as Record<string, unknown>, location);
  // The text test is a cheap filter that spares most small documents the walk and the import.
  const doc = (text.includes('$ref') && containsRef(data) ? await dereference(data, location, options) : data) as Record<string, unknown>;
  const declared = serverUrls(doc.servers, location);
  // OpenAPI: "If the servers property is not provided, or is an empty array, the default value would be a Server Object with a url value of /."
  const servers = declared.length > 0 ? declared : serverUrls([{ url: '/' }], location);
  const info = doc.info as { title?: unknown } | undefined;
  const unnamed: Operation[] = [];
  const operations = indexOperations(doc, location, servers, unnamed);
  const responseSchemas = responseSchemasOf(doc, [...operations.values(), ...unnamed]);
  return {
    location,
    version,
    ...(typeof info?.title === 'string' ? { title: info.title } : {}),
    servers,
    operations,
    ...(unnamed.length > 0 ? { unnamedOperations: unnamed } : {}),
    ...(responseSchemas ? { responseSchemas } : {}),
  };
}

/**
 * The response schemas response checks read, or undefined: none declared, or a graph made cyclic
 * by dereferencing (a recursive schema a parameter also uses), which a validator could not compile.
 */
function responseSchemasOf(doc: Record<string, unknown>, operations: Operation[]): Record<string, unknown> | undefined {
  const schemas = collectResponseSchemas(doc, operations);
  if (schemas === undefined) return undefined;
  try {
    JSON.stringify(schemas);
    return schemas;
  } catch {
    return undefined;
  }
}

function checkVersion(doc: Record<string, unknown>, location: string): string {
  if (doc.swagger !== undefined) {
    throw new DescriptionError(
      'DESCRIPTION_INVALID',
      location,
      `${location}: this is a Swagger ${String(doc.swagger)} description; only OpenAPI 3.0 and 3.1 are supported: convert it (e.g. npx swagger2openapi) and point the source description at the result`,
    );
  }
  const version = typeof doc.openapi === 'number' ? String(doc.openapi) : doc.openapi;
  if (typeof version !== 'string') {
    throw new DescriptionError('DESCRIPTION_INVALID', location, `${location}: no "openapi" version field; is this an OpenAPI 3.0 or 3.1 description?`);
  }
  if (!SUPPORTED_VERSION.test(version)) {
    throw new DescriptionError('DESCRIPTION_INVALID', location, `${location}: declares openapi ${version}; only OpenAPI 3.0.x and 3.1.x are supported`);
  }
  return version;
}
