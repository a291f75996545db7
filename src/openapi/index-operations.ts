import { escapePointerToken } from '../expressions/json-pointer.js';
import type { HttpMethod } from '../http/types.js';
import { DescriptionError } from './errors.js';
import { isJsonMediaType, mediaTypeEssence } from './media-type.js';
import { compilePathTemplate } from './path-template.js';
import { readParameters } from './read-parameters.js';
import { serverUrls } from './servers.js';
import type { Operation } from './types.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Indexes the operations of a dereferenced OpenAPI document by operationId. Operations without
 * an operationId are not indexed; they go to `unnamed` when given (an operationPath reaches them),
 * named `<METHOD> <path>`. Throws DescriptionError DESCRIPTION_INVALID when `paths` is not
 * an object, an operationId is used twice, or a parameter is malformed.
 */
export function indexOperations(doc: Record<string, unknown>, location: string, documentServers: string[], unnamed?: Operation[]): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  const paths = doc.paths;
  if (paths === undefined || paths === null) return operations;
  if (typeof paths !== 'object' || Array.isArray(paths)) {
    throw new DescriptionError('DESCRIPTION_INVALID', location, `${location}#/paths: must be an object mapping paths to path items; fix the description`);
  }
  for (const [path, rawItem] of Object.entries(paths)) {
    if (rawItem === null || typeof rawItem !== 'object') continue;
    const item = rawItem as Record<string, unknown>;
    const itemPointer = `/paths/${escapePointerToken(path)}`;
    const pathServers = serverUrls(item.servers, location);
    for (const method of METHODS) {
      const rawOp = item[method];
      if (rawOp === null || typeof rawOp !== 'object') continue;
      const op = rawOp as Record<string, unknown>;
      const pointer = `${itemPointer}/${method}`;
      if (typeof op.operationId !== 'string') {
        if (unnamed) addUnnamed(unnamed, () => operationOf(`${method.toUpperCase()} ${path}`, method, path, item, op, pointer, location, pathServers, documentServers));
        continue;
      }
      const previous = operations.get(op.operationId);
      if (previous) {
        throw new DescriptionError(
          'DESCRIPTION_INVALID',
          location,
          `${location}: operationId "${op.operationId}" is used by both #${previous.pointer} and #${pointer}; operationIds must be unique`,
        );
      }
      operations.set(op.operationId, operationOf(op.operationId, method, path, item, op, pointer, location, pathServers, documentServers));
    }
  }
  return operations;
}

// An operation without an operationId was never read before operationPath could reach it: a
// malformed one leaves the description usable, as it always did, and is simply not reachable.
function addUnnamed(unnamed: Operation[], read: () => Operation): void {
  try {
    unnamed.push(read());
  } catch (error) {
    if (!(error instanceof DescriptionError)) throw error;
  }
}

function operationOf(
  operationId: string,
  method: (typeof METHODS)[number],
  path: string,
  item: Record<string, unknown>,
  op: Record<string, unknown>,
  pointer: string,
  location: string,
  pathServers: string[],
  documentServers: string[],
): Operation {
  const itemPointer = pointer.slice(0, pointer.lastIndexOf('/'));
  return {
    operationId,
    method: method.toUpperCase() as HttpMethod,
    path,
    ...(typeof op.summary === 'string' ? { summary: op.summary } : {}),
    servers: unique([...serverUrls(op.servers, location), ...pathServers, ...documentServers]),
    parameters: readParameters(item.parameters, op.parameters, { pathItem: itemPointer, operation: pointer }, location),
    ...requestBodyOf(op.requestBody),
    pointer,
    pathTemplate: compilePathTemplate(path),
    ...acceptOf(op.responses),
    ...(declaresRedirect(op.responses) ? { answersRedirect: true as const } : {}),
    ...responsesOf(op.responses),
  };
}

/** Each declared status (`200`, `2XX`, `default`) with its media types, as written; nothing when none are declared. */
function responsesOf(raw: unknown): Pick<Operation, 'responses'> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const responses: Record<string, string[]> = {};
  for (const [status, response] of Object.entries(raw)) {
    if (!/^(?:[1-5](?:\d\d|XX)|default)$/i.test(status) || response === null || typeof response !== 'object') continue;
    const content = (response as { content?: unknown }).content;
    responses[status] = content !== null && typeof content === 'object' && !Array.isArray(content) ? Object.keys(content) : [];
  }
  return Object.keys(responses).length > 0 ? { responses } : {};
}

/** Whether the responses declare a 3xx status (`302`, `3XX`). */
function declaresRedirect(responses: unknown): boolean {
  return responses !== null && typeof responses === 'object' && Object.keys(responses).some((status) => /^3(\d\d|XX)$/i.test(status));
}

function requestBodyOf(raw: unknown): Pick<Operation, 'requestBody'> {
  if (raw === null || typeof raw !== 'object') return {};
  const body = raw as { required?: unknown; content?: unknown };
  const content = body.content !== null && typeof body.content === 'object' ? Object.keys(body.content) : [];
  return { requestBody: { required: body.required === true, contentTypes: content } };
}

/** `application/json` when a response offers it, else the JSON-like types offered, else nothing. */
function acceptOf(responses: unknown): Pick<Operation, 'accept'> {
  if (responses === null || typeof responses !== 'object') return {};
  const jsonTypes: string[] = [];
  for (const response of Object.values(responses)) {
    const content = response !== null && typeof response === 'object' ? (response as { content?: unknown }).content : undefined;
    if (content === null || typeof content !== 'object') continue;
    for (const mediaType of Object.keys(content)) {
      if (isJsonMediaType(mediaType) && !jsonTypes.includes(mediaType)) jsonTypes.push(mediaType);
    }
  }
  if (jsonTypes.length === 0) return {};
  if (jsonTypes.some((t) => mediaTypeEssence(t) === 'application/json')) return { accept: 'application/json' };
  return { accept: jsonTypes.join(', ') };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
