import { stringifyJson } from '../expressions/stringify-json.js';
import type { HttpRequest } from '../http/types.js';
import { buildRequestBody } from './build-request-body.js';
import { queryStringOf } from './query-string.js';
import { RequestBuildError } from './errors.js';
import { serializeCookie, serializeHeader, serializePath, serializeQuery } from './serialize-parameter.js';
import type { Operation, ParameterLocation, ParameterSpec } from './types.js';

export interface RequestInput {
  /** Absolute http(s) URL; the operation path is appended to it, keeping its own path prefix. */
  baseUrl: string;
  /** Evaluated values; without `in`, the location is looked up by name among the operation's parameters. */
  parameters: Array<{ name: string; in?: string; value: unknown }>;
  /** Evaluated payload; the content type defaults to the operation's first, else application/json. */
  body?: { contentType?: string; payload: unknown };
}

const ABSOLUTE_HTTP = /^https?:\/\/[^/?#]/i;
const TRAILING_SLASHES = /\/+$/;
const QUERY_OR_FRAGMENT = /[?#]/;

/**
 * Builds the HTTP request for one call of `op`: path, query, header and cookie parameters
 * serialised per their style/explode, the body encoded per its content type.
 * Throws RequestBuildError (NO_SERVER_URL, UNKNOWN_PARAMETER_LOCATION, MISSING_PATH_PARAMETER,
 * BAD_BODY, UNSUPPORTED_CONTENT_TYPE) naming the operation and what to fix.
 */
export function buildRequest(op: Operation, input: RequestInput): HttpRequest {
  if (!ABSOLUTE_HTTP.test(input.baseUrl)) {
    throw new RequestBuildError(
      'NO_SERVER_URL',
      `operation "${op.operationId}": no absolute http(s) base URL (got "${input.baseUrl}"); register the API with its base URL or give the description an absolute servers url`,
    );
  }
  const pathValues = new Map<string, string>();
  const query: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  let querystring: string | undefined;
  for (const parameter of input.parameters) {
    // Arazzo 1.1: the whole query string as one value (query-string.ts).
    if (parameter.in === 'querystring') {
      if (querystring !== undefined) throw new RequestBuildError('QUERYSTRING_CONFLICT', `operation "${op.operationId}": two querystring parameters ("${parameter.name}" and another); a request has one query string`);
      querystring = queryStringOf(parameter.value);
      continue;
    }
    const where = locationOf(op, parameter);
    const spec = findSpec(op.parameters, parameter.name, where);
    const value = spec?.contentType === undefined ? parameter.value : contentText(parameter.value);
    switch (where) {
      case 'path':
        pathValues.set(parameter.name, serializePath(parameter.name, value, spec?.style, spec?.explode));
        break;
      case 'query':
        query.push(...serializeQuery(parameter.name, value, spec?.style, spec?.explode, spec?.allowReserved));
        break;
      case 'header':
        headers[parameter.name] = serializeHeader(value, spec?.explode);
        break;
      case 'cookie':
        cookies.push(...serializeCookie(parameter.name, value, spec?.explode));
        break;
    }
  }
  if (querystring !== undefined && query.length > 0) {
    throw new RequestBuildError('QUERYSTRING_CONFLICT', `operation "${op.operationId}": a querystring parameter sets the whole query string, and query parameters are given too; use one or the other`);
  }
  if (querystring !== undefined && querystring !== '') query.push(querystring);
  const request: HttpRequest = { method: op.method, url: joinUrl(input.baseUrl, renderPath(op, pathValues), query), headers };
  if (cookies.length > 0) {
    const existing = takeHeader(headers, 'cookie');
    headers.Cookie = existing === undefined ? cookies.join('; ') : `${existing}; ${cookies.join('; ')}`;
  }
  if (op.accept !== undefined && !hasHeader(headers, 'accept')) headers.Accept = op.accept;
  if (op.answersRedirect) request.followRedirects = false;
  if (input.body !== undefined && input.body.payload !== undefined) {
    const explicit = takeHeader(headers, 'content-type');
    const contentType = input.body.contentType ?? explicit ?? declaredContentType(op) ?? 'application/json';
    request.body = buildRequestBody(input.body.payload, contentType, op.operationId);
    // multipart: the pipeline writes Content-Type itself, because only it knows the boundary.
    if (request.body.kind === 'bytes') headers['Content-Type'] = request.body.contentType;
  }
  return request;
}

function locationOf(op: Operation, parameter: { name: string; in?: string }): ParameterLocation {
  const where = parameter.in;
  if (where === 'path' || where === 'query' || where === 'header' || where === 'cookie') return where;
  if (where !== undefined) {
    throw new RequestBuildError(
      'UNKNOWN_PARAMETER_LOCATION',
      `operation "${op.operationId}": parameter "${parameter.name}" has in: "${where}"; use path, query, header or cookie`,
    );
  }
  const declared = op.parameters.find((p) => p.name === parameter.name);
  if (declared) return declared.in;
  throw new RequestBuildError(
    'UNKNOWN_PARAMETER_LOCATION',
    `operation "${op.operationId}" declares no parameter "${parameter.name}"; give the step parameter an "in" (path, query, header or cookie)`,
  );
}

function findSpec(specs: ParameterSpec[], name: string, where: ParameterLocation): ParameterSpec | undefined {
  if (where !== 'header') return specs.find((p) => p.in === where && p.name === name);
  const lower = name.toLowerCase();
  return specs.find((p) => p.in === 'header' && p.name.toLowerCase() === lower);
}

/** A `content`-style parameter carries its value serialised as JSON; a string is taken as already serialised. */
function contentText(value: unknown): unknown {
  return typeof value === 'string' || value === null || value === undefined ? value : stringifyJson(value);
}

function renderPath(op: Operation, values: Map<string, string>): string {
  let path = '';
  for (const part of op.pathTemplate) {
    if ('literal' in part) {
      path += part.literal;
      continue;
    }
    const value = values.get(part.param);
    if (value === undefined) {
      throw new RequestBuildError(
        'MISSING_PATH_PARAMETER',
        `operation "${op.operationId}" (${op.method} ${op.path}) needs path parameter "${part.param}"; add it to the step's parameters with in: path`,
      );
    }
    if (value === '') {
      // `--input sku=` would otherwise call `/items/`, a different resource.
      throw new RequestBuildError(
        'MISSING_PATH_PARAMETER',
        `operation "${op.operationId}" (${op.method} ${op.path}): path parameter "${part.param}" is empty; give it a value`,
      );
    }
    path += value;
  }
  return path.startsWith('/') ? path : `/${path}`;
}

/** `http://h:1/v1/` + `/pets` -> `http://h:1/v1/pets`; a query already on the base URL is kept first. */
function joinUrl(baseUrl: string, path: string, query: string[]): string {
  const cut = baseUrl.search(QUERY_OR_FRAGMENT);
  const basePath = (cut === -1 ? baseUrl : baseUrl.slice(0, cut)).replace(TRAILING_SLASHES, '');
  const baseQuery = cut !== -1 && baseUrl[cut] === '?' ? baseUrl.slice(cut + 1).split('#')[0] ?? '' : '';
  const parts = baseQuery === '' ? query : [baseQuery, ...query];
  return parts.length === 0 ? basePath + path : `${basePath}${path}?${parts.join('&')}`;
}

function declaredContentType(op: Operation): string | undefined {
  // Wildcards (`*/*`, `image/*`) say what the server accepts, not what to send.
  return op.requestBody?.contentTypes.find((type) => !type.includes('*'));
}

function hasHeader(headers: Record<string, string>, lowerName: string): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === lowerName);
}

/** Removes a header whatever its case and returns its value. */
function takeHeader(headers: Record<string, string>, lowerName: string): string | undefined {
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() === lowerName) {
      const value = headers[name];
      delete headers[name];
      return value;
    }
  }
  return undefined;
}
