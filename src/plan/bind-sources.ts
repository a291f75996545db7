import { resolve as resolvePath } from 'node:path';
import type { LoadedDocument, SourceDescription } from '../arazzo/model.js';
import { ToolError } from '../errors/tool-error.js';
import type { AuthHook } from '../http/types.js';
import { usableServerUrl } from '../openapi/servers.js';
import type { OpenApiDescription } from '../openapi/types.js';
import { didYouMean } from '../arazzo/suggest.js';

/** A configured API as the binder sees it (the registry supplies these). */
export interface RegisteredApi {
  name: string;
  baseUrl: string;
  /** The API's description as registered (`tool api add --spec`): an absolute file path or an http(s) URL. */
  spec?: string;
  auth?: AuthHook;
}

/** Looks up configured APIs by name. */
export interface ApiLookup {
  get(name: string): RegisteredApi | undefined;
  /** Every configured API, for suggestions (a typo in x-tool-api, an API with a source's base URL). */
  list?(): RegisteredApi[];
}

export type BindingReason = '--tool-bind' | 'x-tool-api' | 'name match' | 'synthetic';

/** A source description bound to a configured API (or synthetic, unauthenticated). */
export interface BoundSource {
  name: string;
  url: string;
  description: OpenApiDescription;
  reason: BindingReason;
  api?: RegisteredApi;
  /** The bound API's base URL; undefined for a synthetic source (the description's servers apply). */
  baseUrl?: string;
  auth?: AuthHook;
}

/** Thrown when `x-tool-api` or `--tool-bind` names an API that is not configured, or `--tool-bind` a source the document lacks (exit 2, before any request). */
export class BindingError extends ToolError {
  constructor(message: string, hint: string, code: 'UNKNOWN_API' | 'UNKNOWN_BIND_SOURCE' = 'UNKNOWN_API') {
    super(code, message, hint);
    this.name = 'BindingError';
  }
}

/** Whether a source is an OpenAPI description the runner binds (Arazzo sources are nested workflows, not supported in v1). */
export function isOpenApiSource(source: SourceDescription): boolean {
  return source.type === undefined || source.type === 'openapi';
}

/**
 * Which document's sources are bound. The run's own (the default): `--tool-bind <source>=<api>`,
 * then `x-tool-api`, then a registered API with the source's name. An Arazzo source's (`prefix` is
 * its sources' prefix in `--tool-bind`, `child.` for `--tool-bind child.api=<api>`): a registered
 * API with the source's name binds it only when it was registered with that source's description
 * (`--spec`); otherwise a source of another document that happens to share a name would send its
 * requests to the caller's server.
 */
export interface BindScope {
  binds?: ReadonlyMap<string, string>;
  included?: { prefix: string };
  /** false: nothing will be sent (a replay), so a synthetic source is not warned to be sent without credentials. */
  sends?: boolean;
}

/**
 * Binds each OpenAPI source in the spec's order: `--tool-bind`, then `x-tool-api`, then name match
 * (see BindScope), else synthetic. Loads each description once. Throws BindingError, before loading
 * any description for a bind, when a bind names a source that is not an OpenAPI source of the
 * document (of the run's document only: those of included documents are checked by
 * unusedIncludedBinds once the run has opened them) or an unknown API, and for an `x-tool-api` that
 * names an unknown API; returns the warnings to print (synthetic sources, names that did not bind).
 */
export async function bindSources(
  doc: LoadedDocument,
  registry: ApiLookup,
  loadDescription: (url: string) => Promise<OpenApiDescription>,
  scope: BindScope = {},
): Promise<{ sources: BoundSource[]; warnings: string[] }> {
  const included = scope.included;
  const bound = bindsToApis(doc, registry, scope.binds ?? new Map(), included?.prefix ?? '');
  const sources: BoundSource[] = [];
  const warnings: string[] = [];
  for (const source of doc.model.sourceDescriptions) {
    if (!isOpenApiSource(source) || source.name === undefined || source.url === undefined) continue;
    const name = source.name;
    let { api, reason } = chooseApi(source, bound, registry, '<base-url>');
    let namesake: RegisteredApi | undefined;
    const description = await loadDescription(source.url);
    if (included && reason === 'name match' && !sameDescription(api!.spec, description.location)) {
      namesake = api;
      api = undefined;
      reason = 'synthetic';
    }
    sources.push({ name, url: source.url, description, reason, api, baseUrl: api?.baseUrl, auth: api?.auth });
    if (namesake) warnings.push(namesakeWarning(name, namesake, description, included!));
    else if (!api && scope.sends !== false) warnings.push(syntheticWarning(name, description, registry));
  }
  return { sources, warnings };
}

/**
 * The registered API a source binds to, and why: `--tool-bind` (in `bound`), then `x-tool-api`,
 * then a registered API of the source's name; none: synthetic. Throws BindingError for an
 * `x-tool-api` that names no registered API (`example` is the base URL its hint suggests).
 */
export function chooseApi(source: SourceDescription, bound: ReadonlyMap<string, RegisteredApi>, registry: ApiLookup, example: string): { api?: RegisteredApi; reason: BindingReason } {
  const name = source.name ?? '';
  if (bound.has(name)) return { api: bound.get(name)!, reason: '--tool-bind' };
  if (source.api !== undefined) {
    const api = registry.get(source.api);
    if (api) return { api, reason: 'x-tool-api' };
    const known = registry.list?.().map((candidate) => candidate.name) ?? [];
    throw new BindingError(
      `source "${name}" has x-tool-api: ${source.api}, but no API named "${source.api}" is configured${didYouMean(source.api, known)}`,
      `Add it first: tool api add ${source.api} ${example}  (then: tool auth login ${source.api})`,
    );
  }
  const api = registry.get(name);
  return api ? { api, reason: 'name match' } : { reason: 'synthetic' };
}

function syntheticWarning(name: string, description: OpenApiDescription, registry: ApiLookup): string {
  const server = usableServerUrl(description) ?? '<base-url>';
  const same = registry.list?.().find((candidate) => sameBaseUrl(candidate.baseUrl, server));
  return (
    `source "${name}" is not bound to a configured API; its requests are sent without credentials.\n` +
    `  To bind it: tool api add ${name} ${server} && tool auth login ${name}` +
    (same ? `\n  Or use API "${same.name}", registered with the same base URL: add x-tool-api: ${same.name} to source "${name}"` : '')
  );
}

/** A source of an included document that has the name of a registered API for another description. */
function namesakeWarning(name: string, api: RegisteredApi, description: OpenApiDescription, included: { prefix: string }): string {
  const server = usableServerUrl(description) ?? '(none)';
  const registered = api.spec === undefined ? 'registered without a description' : `registered for ${api.spec}`;
  return (
    `source "${name}" (description ${description.location}) is not bound to API "${name}", ${registered}; ` +
    `its requests go to its own server ${server} without credentials.\n` +
    `  To send them to API "${name}": --tool-bind ${included.prefix}${name}=${name}`
  );
}

/** Whether a registered API's description is this source's: the same absolute path, or the same URL. */
function sameDescription(spec: string | undefined, location: string): boolean {
  if (spec === undefined) return false;
  if (spec === location) return true;
  const normal = (at: string): string => {
    if (!/^https?:\/\//i.test(at)) return resolvePath(at);
    try {
      return new URL(at).href;
    } catch {
      return at;
    }
  };
  return normal(spec) === normal(location);
}

/**
 * The API each `--tool-bind` of this document names, by source (a bind `child.api` is the source
 * `api` of the document whose prefix is `child.`; the run's document has the prefix ''). Throws
 * BindingError for an unknown API, and for an unknown source of the run's document (a bind with a
 * `.` is for an included document), listing the known ones.
 */
export function bindsToApis(doc: LoadedDocument, registry: ApiLookup, binds: ReadonlyMap<string, string>, prefix: string): Map<string, RegisteredApi> {
  const apis = new Map<string, RegisteredApi>();
  if (binds.size === 0) return apis;
  // OpenAPI sources bind to APIs, and (Arazzo 1.1) AsyncAPI sources to brokers (async-sources.ts).
  const openapi = doc.model.sourceDescriptions.filter((s) => (isOpenApiSource(s) || s.type === 'asyncapi') && s.url !== undefined).flatMap((s) => (s.name === undefined ? [] : [s.name]));
  for (const [key, apiName] of binds) {
    const name = ownSource(key, prefix);
    if (name === undefined) continue;
    if (!openapi.includes(name)) {
      // A source of an included document that this one does not have: reported once the run has opened them all.
      if (prefix !== '') continue;
      const other = doc.model.sourceDescriptions.find((s) => s.name === name);
      throw new BindingError(
        other
          ? `--tool-bind ${name}=${apiName}: source "${name}" is of type ${other.type ?? ''}; only OpenAPI and AsyncAPI sources are bound to APIs`
          : `--tool-bind ${name}=${apiName}: ${doc.file} has no source named "${name}"${didYouMean(name, openapi)}`,
        `Its OpenAPI sources: ${openapi.join(', ') || 'none'}`,
        'UNKNOWN_BIND_SOURCE',
      );
    }
    apis.set(name, knownApi(registry, key, apiName));
  }
  return apis;
}

/** The source name a bind key names in the document with `prefix`, or undefined when it is another document's. */
function ownSource(key: string, prefix: string): string | undefined {
  if (!key.startsWith(prefix)) return undefined;
  const name = key.slice(prefix.length);
  return name.includes('.') ? undefined : name;
}

function knownApi(registry: ApiLookup, key: string, apiName: string): RegisteredApi {
  const api = registry.get(apiName);
  if (api) return api;
  const known = registry.list?.().map((candidate) => candidate.name) ?? [];
  throw new BindingError(
    `--tool-bind ${key}=${apiName}: no API named "${apiName}" is configured${didYouMean(apiName, known)}`,
    `${known.length > 0 ? `Configured APIs: ${known.join(', ')}. ` : 'No API is configured yet. '}Add it: tool api add ${apiName} <base-url>  (then: tool auth login ${apiName})`,
  );
}

/**
 * The `--tool-bind <arazzo-source>.<source>=<api>` flags that named no OpenAPI source of the
 * documents the run opened (`sourcesByPrefix`: each included document's OpenAPI source names, by
 * prefix). Throws BindingError UNKNOWN_BIND_SOURCE (exit 2) for the first, before any request.
 */
export function refuseUnusedIncludedBinds(binds: ReadonlyMap<string, string>, sourcesByPrefix: ReadonlyMap<string, readonly string[]>): void {
  for (const [key, apiName] of binds) {
    if (!key.includes('.')) continue;
    const prefix = key.slice(0, key.lastIndexOf('.') + 1);
    const names = sourcesByPrefix.get(prefix);
    const name = key.slice(prefix.length);
    if (names?.includes(name)) continue;
    const documents = [...sourcesByPrefix.keys()].map((p) => p.slice(0, -1));
    throw new BindingError(
      names === undefined
        ? `--tool-bind ${key}=${apiName}: the run reaches no Arazzo source "${prefix.slice(0, -1)}"${didYouMean(prefix.slice(0, -1), documents)}`
        : `--tool-bind ${key}=${apiName}: Arazzo source "${prefix.slice(0, -1)}" has no OpenAPI source named "${name}"${didYouMean(name, [...names])}`,
      names === undefined
        ? `The Arazzo sources this run opens: ${documents.join(', ') || 'none'} (bind one of their sources as <arazzo-source>.<source>=<api>).`
        : `Its OpenAPI sources: ${names.join(', ') || 'none'}`,
      'UNKNOWN_BIND_SOURCE',
    );
  }
}

/** `http://h:1/v1/` and `HTTP://h:1/v1` are the same base URL. */
function sameBaseUrl(a: string, b: string): boolean {
  const normal = (url: string): string | undefined => {
    try {
      return new URL(url).href.replace(/\/+$/, '');
    } catch {
      return undefined;
    }
  };
  const left = normal(a);
  return left !== undefined && left === normal(b);
}
