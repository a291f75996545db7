import { stringifyJson } from '../expressions/stringify-json.js';
import type { HttpBody, MultipartPart } from '../http/types.js';
import { RequestBuildError } from './errors.js';
import { isJsonMediaType, mediaTypeEssence } from './media-type.js';
import { isPlainObject, leafText } from './value-shape.js';

/**
 * Builds the request body of a templated payload for its content type (the build stage; the
 * pipeline's wireBody makes the bytes when it is sent): JSON and `+json`, form-urlencoded,
 * multipart (one part per key), text/*, octet-stream; any other type takes a string or bytes as
 * is. `operationId` only names the operation in errors. Throws RequestBuildError BAD_BODY when
 * the payload does not fit the type, UNSUPPORTED_CONTENT_TYPE for a non-string payload of a
 * type that has no serialisation here.
 */
export function buildRequestBody(payload: unknown, contentType: string, operationId: string): HttpBody {
  const essence = mediaTypeEssence(contentType);
  if (essence === 'multipart/form-data') return { kind: 'multipart', parts: multipartParts(payload, operationId) };
  if (essence === 'application/x-www-form-urlencoded') return bytes(contentType, formUrlEncoded(payload, operationId));
  if (payload instanceof Uint8Array) return bytes(contentType, asBuffer(payload));
  if (isJsonMediaType(contentType)) return bytes(contentType, jsonText(payload, operationId));
  if (essence.startsWith('text/')) return bytes(contentType, typeof payload === 'string' ? payload : leafText(payload));
  if (typeof payload === 'string') return bytes(contentType, payload);
  if (essence === 'application/octet-stream') {
    throw new RequestBuildError('BAD_BODY', `operation "${operationId}": an application/octet-stream payload must be a string or bytes, got ${typeName(payload)}`);
  }
  if (essence.includes('json')) return bytes(contentType, jsonText(payload, operationId));
  throw new RequestBuildError(
    'UNSUPPORTED_CONTENT_TYPE',
    `operation "${operationId}": cannot serialise a payload of type ${typeName(payload)} as ${contentType}; give the payload as a string in that format`,
  );
}

function bytes(contentType: string, data: string | Buffer): HttpBody {
  return { kind: 'bytes', contentType, data };
}

/**
 * A string that looks like JSON text (starts with `{` or `[`, as in the Arazzo spec's own
 * examples with `payload: |`) is sent as written, after checking it parses; any other value,
 * strings included, is JSON-encoded.
 */
function jsonText(payload: unknown, operationId: string): string {
  if (typeof payload === 'string') {
    const first = payload.trimStart()[0];
    if (first === '{' || first === '[') {
      try {
        JSON.parse(payload);
      } catch (err) {
        throw new RequestBuildError('BAD_BODY', `operation "${operationId}": the payload is JSON text that does not parse (${(err as Error).message}); check the quoting of interpolated values`, { cause: err });
      }
      return payload;
    }
  }
  try {
    // A payload copied from a deep response body can nest past JSON.stringify's recursion limit.
    const text = stringifyJson(payload);
    if (text === undefined) throw new Error(`${typeName(payload)} has no JSON form`);
    return text;
  } catch (err) {
    throw new RequestBuildError('BAD_BODY', `operation "${operationId}": the payload cannot be encoded as JSON (${(err as Error).message})`, { cause: err });
  }
}

function formUrlEncoded(payload: unknown, operationId: string): string | Buffer {
  if (typeof payload === 'string') return payload;
  if (payload instanceof Uint8Array) return asBuffer(payload);
  if (!isPlainObject(payload)) {
    throw new RequestBuildError('BAD_BODY', `operation "${operationId}": an application/x-www-form-urlencoded payload must be an object or a string, got ${typeName(payload)}`);
  }
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) form.append(key, leafText(item));
    else form.append(key, leafText(value));
  }
  return form.toString();
}

function multipartParts(payload: unknown, operationId: string): MultipartPart[] {
  if (!isPlainObject(payload)) {
    throw new RequestBuildError('BAD_BODY', `operation "${operationId}": a multipart/form-data payload must be an object (one part per key), got ${typeName(payload)}`);
  }
  const parts: MultipartPart[] = [];
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined) continue;
    if (value instanceof Uint8Array) {
      // A filename makes servers treat the part as an uploaded file, as `curl -F name=@file` does.
      parts.push({ name, value: asBuffer(value), contentType: 'application/octet-stream', filename: name });
    } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
      parts.push({ name, value: stringifyJson(value) ?? '', contentType: 'application/json' });
    } else {
      parts.push({ name, value: leafText(value) });
    }
  }
  return parts;
}

function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
