import type { LoadedDocument, SourceDescription } from '../arazzo/model.js';
import { EXIT, ToolError } from '../cli/errors.js';
import type { AuthHook } from '../http/types.js';
import type { OpenApiDescription } from '../openapi/index.js';

/** A configured API as the binder sees it (the registry supplies these). */
export interface RegisteredApi {
  name: string;
  baseUrl: string;
  auth?: AuthHook;
}

/** Looks up configured APIs by name. */
export interface ApiLookup {
  get(name: string): RegisteredApi | undefined;
}

export type BindingReason = 'x-tool-api' | 'name match' | 'synthetic';

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

/** Thrown when `x-tool-api` names an API that is not configured (exit 2, before any request). */
export class BindingError extends ToolError {
  constructor(message: string, hint: string) {
    super('UNKNOWN_API', message, EXIT.USAGE, hint);
    this.name = 'BindingError';
  }
}

/** Whether a source is an OpenAPI description the runner binds (Arazzo sources are nested workflows, not supported in v1). */
export function isOpenApiSource(source: SourceDescription): boolean {
  return source.type === undefined || source.type === 'openapi';
}

/**
 * Binds each OpenAPI source in the spec's order: `x-tool-api`, then a registered API with the
 * source's name, else synthetic. Loads each description once. Throws BindingError for an
 * `x-tool-api` that names an unknown API; returns the synthetic-source warnings to print.
 */
export async function bindSources(
  doc: LoadedDocument,
  registry: ApiLookup,
  loadDescription: (url: string) => Promise<OpenApiDescription>,
): Promise<{ sources: BoundSource[]; warnings: string[] }> {
  const sources: BoundSource[] = [];
  const warnings: string[] = [];
  for (const source of doc.model.sourceDescriptions) {
    if (!isOpenApiSource(source) || source.name === undefined || source.url === undefined) continue;
    const name = source.name;
    let api: RegisteredApi | undefined;
    let reason: BindingReason = 'synthetic';
    if (source.api !== undefined) {
      api = registry.get(source.api);
      if (!api) {
        throw new BindingError(
          `source "${name}" has x-tool-api: ${source.api}, but no API named "${source.api}" is configured`,
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
      const server = description.servers.find((s) => /^https?:\/\//i.test(s)) ?? '<base-url>';
      warnings.push(
        `source "${name}" is not bound to a configured API; its requests are sent without credentials.\n` +
          `  To bind it: tool api add ${name} ${server} && tool auth login ${name}`,
      );
    }
  }
  return { sources, warnings };
}
