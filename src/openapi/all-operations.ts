import type { OpenApiDescription, Operation } from './types.js';

/** Every operation of a description, with an operationId or without one (what an operationPath can reach), in document order per group. */
export function allOperations(description: OpenApiDescription): Operation[] {
  return [...description.operations.values(), ...(description.unnamedOperations ?? [])];
}
