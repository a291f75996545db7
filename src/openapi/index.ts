/** OpenAPI descriptions: loading, the operation index, and building a step's HTTP request. */
export type { OpenApiDescription, Operation, ParameterLocation, ParameterSpec, PathPart } from './types.js';
export { DescriptionError, RefFetchRefusedError, RequestBuildError } from './errors.js';
export type { DescriptionErrorCode, RequestBuildErrorCode } from './errors.js';
export { parseDescription } from './parse-description.js';
export { loadDescription } from './load-description.js';
export type { LoadDescriptionOptions } from './load-description.js';
export type { DereferenceOptions } from './dereference.js';
export { buildRequest } from './build-request.js';
export type { RequestInput } from './build-request.js';
export { operationServerUrl } from './servers.js';
export { compilePathTemplate } from './path-template.js';
