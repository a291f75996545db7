/**
 * Arazzo 1.1 `type: asyncapi` sources: read (by the read rules of source documents:
 * source-document-reader.ts), parsed as YAML or JSON, read as AsyncAPI 3 (src/async), and bound
 * like an OpenAPI source: `--tool-bind`, then `x-tool-api`, then a registered API of the same name
 * (`tool api add broker mqtt://…`, credentials with `tool auth login broker --type basic`), else
 * unbound: each operation's own AsyncAPI server, without credentials (with a warning). A bound
 * API's base URL must be a broker's or message server's (mqtt, mqtts, ws, wss).
 */
import type { LoadedDocument } from '../arazzo/model.js';
import { yamlLibrary } from '../arazzo/yaml-library.js';
import { readAsyncApi, type AsyncApiDocument } from '../async/asyncapi-document.js';
import { serverUrl, supportedProtocol } from '../async/asyncapi-lookup.js';
import { ToolError } from '../errors/tool-error.js';
import type { AuthHook } from '../http/types.js';
import { BindingError, bindsToApis, chooseApi, type ApiLookup, type BindingReason, type BindScope, type RegisteredApi } from './bind-sources.js';

/** An AsyncAPI source of a document, read and bound. */
export interface AsyncSource {
  name: string;
  /** Its url as written. */
  url: string;
  /** Where it was read from. */
  location: string;
  document: AsyncApiDocument;
  reason: BindingReason;
  api?: RegisteredApi;
  /** The bound API's base URL (a broker's); absent: each operation's own AsyncAPI server. */
  baseUrl?: string;
  auth?: AuthHook;
}

/** Reads the text of the source document at `url`, as the Arazzo document names it. */
export type ReadSourceText = (url: string) => Promise<{ text: string; location: string }>;

/** The schemes a bound API of an AsyncAPI source may have. */
const BROKER_URL = /^(mqtts?|wss?):\/\//i;

/** Most aliases a YAML AsyncAPI document may use (an alias bomb is refused, as for descriptions). */
const MAX_ALIASES = 100;

/**
 * Reads and binds the AsyncAPI sources of `doc` (none: no read, no warning). Throws BindingError
 * for an unknown `x-tool-api` or a bound API that is not a broker, ToolError ASYNCAPI_INVALID for
 * a source that is not an AsyncAPI 3 document, and what `read` throws.
 */
export async function bindAsyncSources(doc: LoadedDocument, registry: ApiLookup, read: ReadSourceText, scope: BindScope = {}): Promise<{ sources: AsyncSource[]; warnings: string[] }> {
  const sources: AsyncSource[] = [];
  const warnings: string[] = [];
  const own = doc.model.sourceDescriptions.filter((source) => source.type === 'asyncapi' && source.name !== undefined && source.url !== undefined);
  if (own.length === 0) return { sources, warnings };
  const bound = bindsToApis(doc, registry, scope.binds ?? new Map(), scope.included?.prefix ?? '');
  for (const source of own) {
    const name = source.name!;
    let { api, reason } = chooseApi(source, bound, registry, 'mqtt://<host>:<port>');
    // An included document's namesake is not taken: a broker registered under that name may be another's.
    if (reason === 'name match' && scope.included !== undefined) {
      api = undefined;
      reason = 'synthetic';
    }
    if (api && !BROKER_URL.test(api.baseUrl)) {
      throw new BindingError(
        `source "${name}" is an AsyncAPI description bound to API "${api.name}" (${reason}), whose base URL ${api.baseUrl} is not a broker's (mqtt, mqtts, ws or wss)`,
        `Register the broker under its own name: tool api add ${name} mqtt://<host>:<port>, or bind another API with --tool-bind ${name}=<api>.`,
      );
    }
    const { text, location } = await read(source.url!);
    const document = parseAsyncApi(text, location, name);
    const out: AsyncSource = { name, url: source.url!, location, document, reason };
    if (api) {
      out.api = api;
      out.baseUrl = api.baseUrl;
      if (api.auth) out.auth = api.auth;
    } else if (scope.sends !== false) {
      // The description's own first server a step could use, as HTTP's warning names the description's server URL.
      const server = [...document.servers.values()].find((candidate) => !(supportedProtocol(candidate) instanceof Error));
      const example = server ? serverUrl(server) : 'mqtt://<host>:<port>';
      warnings.push(`source "${name}" is not bound to a registered broker; its steps use the AsyncAPI description's own servers, without credentials.\n  To bind it: tool api add ${name} ${example}  (then, for a broker with a password: tool auth login ${name} --type basic)`);
    }
    sources.push(out);
  }
  return { sources, warnings };
}

/** The AsyncAPI document of a source's text; throws ToolError ASYNCAPI_INVALID naming the source and where. */
export function parseAsyncApi(text: string, location: string, name: string): AsyncApiDocument {
  let value: unknown;
  try {
    value = yamlLibrary().parse(text, { maxAliasCount: MAX_ALIASES, uniqueKeys: true });
  } catch (error) {
    const at = (error as { linePos?: Array<{ line: number; col: number }> }).linePos?.[0];
    throw new ToolError('ASYNCAPI_INVALID', `source "${name}" (${location}${at ? `:${at.line}:${at.col}` : ''}) is not valid YAML or JSON`, 'Check the AsyncAPI description the source url names.');
  }
  try {
    return readAsyncApi(value);
  } catch (error) {
    if (error instanceof ToolError) throw new ToolError('ASYNCAPI_INVALID', `source "${name}" (${location}): ${error.message}`, 'The source must be an AsyncAPI 3 document.');
    throw error;
  }
}
