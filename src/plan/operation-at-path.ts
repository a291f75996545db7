/** v2: the operation a step's operationPath names among the bound sources. */
import { findByPath, missingOperation, OperationPathSyntaxError, parseOperationPath } from '../arazzo/operation-path.js';
import { didYouMean } from '../arazzo/suggest.js';
import { allOperations } from '../openapi/all-operations.js';
import type { Operation } from '../openapi/types.js';
import type { BoundSource } from './bind-sources.js';

/**
 * The operation `{$sourceDescriptions.<name>.url}#/paths/<path>/<method>` names, with its bound
 * source (path-level and operation-level parameters merged, as for an operationId); or, when it
 * names none, why (with the closest source or path). Validation reports the same first (exit 10).
 */
export function operationAtPath(operationPath: string, sources: readonly BoundSource[]): { operation: Operation; source: BoundSource } | { problem: string } {
  let target;
  try {
    target = parseOperationPath(operationPath);
  } catch (error) {
    if (error instanceof OperationPathSyntaxError) return { problem: error.message };
    throw error;
  }
  const source = sources.find((s) => s.name === target.source);
  if (!source) {
    return { problem: `operationPath names source "${target.source}", which is not an OpenAPI source of the document${didYouMean(target.source, sources.map((s) => s.name))}` };
  }
  const operations = allOperations(source.description);
  const operation = findByPath(operations, target);
  return operation ? { operation, source } : { problem: `operationPath names no operation: ${missingOperation(operations, target)}` };
}
