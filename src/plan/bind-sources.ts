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
 * Binds each OpenAPI source in the spec's order: `binds` (v2's `--tool-bind`, source name to API
 * name), then `x-tool-api`, then a registered API with the source's name, else synthetic. Loads
 * each description once. Throws BindingError, before loading any description for a bind, when a
 * bind names a source that is not an OpenAPI source of the document or an unknown API, and for an
 * `x-tool-api` that names an unknown API; returns the synthetic-source warnings to print.
 */
export async function bindSources(
  doc: LoadedDocument,
  registry: ApiLookup,
  loadDescription: (url: string) => Promise<OpenApiDescription>,
  binds: ReadonlyMap<string, string> = new Map(),
): Promise<{ sources: BoundSource[]; warnings: string[] }> {
  const bound = bindsToApis(doc, registry, binds);
  const sources: BoundSource[] = [];
  const warnings: string[] = [];
  for (const source of doc.model.sourceDescriptions) {
    if (!isOpenApiSource(source) || source.name === undefined || source.url === undefined) continue;
    const name = source.name;
    let api: RegisteredApi | undefined;
    let reason: BindingReason = 'synthetic';
    if (bound.has(name)) {
      api = bound.get(name);
      reason = '--tool-bind';
    } else if (source.api !== undefined) {
      api = registry.get(source.api);
      if (!api) {
        const known = registry.list?.().map((candidate) => candidate.name) ?? [];
        throw new BindingError(
          `source "${name}" has x-tool-api: ${source.api}, but no API named "${source.api}" is configured${didYouMean(source.api, known)}`,
          `Add it first: tool api add ${source.api} <base-url>  (then: tool auth login ${source.api})`,
        );
      }
      reason = 'x-tool-api';
    } else {
      api = registry.get(name);
      if (api) reason = 'name match';
    }
    const description = await loadDescription(source.url);
    sources.push({ name, url: source.url, description, reason, api, baseUrl: api?.baseUrl, auth: api?.auth });
    if (!api) {
      const server = usableServerUrl(description) ?? '<base-url>';
      const same = registry.list?.().find((candidate) => sameBaseUrl(candidate.baseUrl, server));
      warnings.push(
        `source "${name}" is not bound to a configured API; its requests are sent without credentials.\n` +
          `  To bind it: tool api add ${name} ${server} && tool auth login ${name}` +
          (same ? `\n  Or use API "${same.name}", registered with the same base URL: add x-tool-api: ${same.name} to source "${name}"` : ''),
      );
    }
  }
  return { sources, warnings };
}

/** The API each `--tool-bind` names, by source; throws BindingError for an unknown source or API, listing the known ones. */
function bindsToApis(doc: LoadedDocument, registry: ApiLookup, binds: ReadonlyMap<string, string>): Map<string, RegisteredApi> {
  const apis = new Map<string, RegisteredApi>();
  if (binds.size === 0) return apis;
  const openapi = doc.model.sourceDescriptions.filter((s) => isOpenApiSource(s) && s.url !== undefined).flatMap((s) => (s.name === undefined ? [] : [s.name]));
  for (const [name, apiName] of binds) {
    if (!openapi.includes(name)) {
      const other = doc.model.sourceDescriptions.find((s) => s.name === name);
      throw new BindingError(
        other
          ? `--tool-bind ${name}=${apiName}: source "${name}" is of type ${other.type ?? ''}; only OpenAPI sources are bound to APIs`
          : `--tool-bind ${name}=${apiName}: ${doc.file} has no source named "${name}"${didYouMean(name, openapi)}`,
        `Its OpenAPI sources: ${openapi.join(', ') || 'none'}`,
        'UNKNOWN_BIND_SOURCE',
      );
    }
    const api = registry.get(apiName);
    if (!api) {
      const known = registry.list?.().map((candidate) => candidate.name) ?? [];
      throw new BindingError(
        `--tool-bind ${name}=${apiName}: no API named "${apiName}" is configured${didYouMean(apiName, known)}`,
        `${known.length > 0 ? `Configured APIs: ${known.join(', ')}. ` : 'No API is configured yet. '}Add it: tool api add ${apiName} <base-url>  (then: tool auth login ${apiName})`,
      );
    }
    apis.set(name, api);
  }
  return apis;
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
