import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { openDescriptionCache, type DescriptionCache } from '../cache/description-cache.js';
import { cachedFetcher, type FetchedText } from '../cache/fetch-description.js';
import { hasOnlyLocalRefs } from '../cache/local-refs.js';
import { ToolError } from '../errors/tool-error.js';
import { ConfigError } from '../config/errors.js';
import { configPaths } from '../config/paths.js';
import { createPipeline, type Pipeline } from '../http/create-pipeline.js';
import { TransportError } from '../http/transport-error.js';
import type { PipelineOptions } from '../http/types.js';
import { redactUrl, secretNames } from '../output/redact.js';
import { DescriptionError, RefFetchRefusedError } from '../openapi/errors.js';
import { loadDescription, checkFetchedSize, readDescription, resolveLocation } from '../openapi/load-description.js';
import { parseDescription } from '../openapi/parse-description.js';
import { sha256 } from '../cache/sha256.js';
import type { OpenApiDescription } from '../openapi/types.js';
import type { LoadedDocument } from '../arazzo/model.js';
import { readPolicyFor, type ReadPolicy } from '../openapi/read-policy.js';
import { createRefAddressGuard } from './ref-address-guard.js';
import { readSourceDocument, sourceTarget, type SourceDocumentText } from './source-document-reader.js';

/** Thrown when a source description cannot be read, fetched or parsed, or breaks a read rule (a usage error: the run never started). */
export class DescriptionUnavailableError extends ToolError {
  constructor(message: string, hint?: string) {
    super('DESCRIPTION_UNAVAILABLE', message, hint);
    this.name = 'DescriptionUnavailableError';
  }
}

export interface DescriptionLoaderOptions {
  /** Where the cache lives (XDG_CACHE_HOME, HOME), TOOL_CACHE_TTL and TOOL_CACHE_MAX_MIB; tool's own folders are never read. Without it or `cache`, nothing is cached. */
  env?: Record<string, string | undefined>;
  /** A cache to use instead of the one `env` names (tests bring their own clock). */
  cache?: DescriptionCache;
  /** Receives warnings, such as a cached copy standing in for an unreachable server. */
  warn?: (message: string) => void;
  /** Hosts a remote description's `$ref`s may reach besides its own origin (--tool-allow-ref-host, and the project's allowRefHosts). */
  allowRefHosts?: readonly string[];
  /** Of those, the hosts `$ref`s may reach also on a loopback or private address (--tool-allow-ref-host only); default: allowRefHosts. */
  addressRefHosts?: readonly string[];
  /** The user named the locations (`tool api add --spec`): a local one may be outside the folder of `baseFile`. */
  explicitSources?: boolean;
  /** Absolute folders local descriptions and their file `$ref`s may also read (--tool-allow-read). */
  allowRead?: readonly string[];
  /** The user's working directory: a refusal then names the --tool-allow-read folder, relative to it. */
  cwd?: string;
  /** The document's source description urls: `$ref`s to the origin of a remote one may reach it whatever its address, whichever loads first. */
  sourceUrls?: readonly string[];
  /** Timeout and retries of the pipeline that fetches `$ref`s (its own, with agents that refuse non-public addresses). */
  refPipeline?: Partial<Pick<PipelineOptions, 'timeoutMs' | 'retry'>>;
  /**
   * A location that could not be loaded is loaded again when asked again (by default its failure
   * is kept): the runs of `arazzo test` share a loader (run-memo.ts), and one failed fetch must not
   * fail every later run. Each run keeps its own failures (withinOneRun).
   */
  retryFailures?: boolean;
}

/**
 * A loader of OpenAPI descriptions for one Arazzo document: locations resolve against the
 * document, http(s) URLs are fetched through the request pipeline and the description cache, and
 * each location is loaded once. Local descriptions and their file `$ref`s must stay inside the
 * document's folder (or an --tool-allow-read one) and out of tool's config and cache folders (see
 * readDescriptionPolicy). http(s) `$ref`s reach only public addresses, besides allowed hosts and
 * the origins of remote sources (see createRefAddressGuard). The loader rejects with
 * DescriptionUnavailableError (exit 2). Throws CacheError at once for a bad
 * TOOL_CACHE_TTL or TOOL_CACHE_MAX_MIB.
 */
export function createDescriptionLoader(pipeline: Pipeline, baseFile: string, options: DescriptionLoaderOptions = {}): DescriptionLoader {
  const cache = options.cache ?? (options.env === undefined ? undefined : openDescriptionCache(options.env));
  const policy = readDescriptionPolicy(baseFile, options);
  const fetch = cachedFetcher({
    pipeline,
    ...(cache ? { store: cache.bodies } : {}),
    ttlMs: cache?.ttlMs ?? 0,
    now: cache?.now ?? Date.now,
    warn: options.warn ?? (() => undefined),
  });
  // $refs go through their own pipeline, whose connections refuse non-public addresses the user did not allow.
  const guard = createRefAddressGuard(options.addressRefHosts ?? policy.allowRefHosts);
  for (const url of options.sourceUrls ?? []) {
    try {
      const target = resolveLocation(url.trim(), baseFile);
      if (target.remote) guard.trustOrigin(target.location);
    } catch {
      // A bad url fails when that source is loaded, with its own message.
    }
  }
  const fetchRef = cachedFetcher({
    pipeline: createPipeline({ ...options.refPipeline, agents: guard.agents }),
    ...(cache ? { store: cache.bodies } : {}),
    ttlMs: cache?.ttlMs ?? 0,
    now: cache?.now ?? Date.now,
    warn: options.warn ?? (() => undefined),
  });
  // A URL a document or a description chose: public addresses only (checked before and at connect time), through the ref pipeline.
  const fetchGuarded = async (url: string): Promise<FetchedText> => {
    const refusal = await guard.refusal(url);
    if (refusal !== undefined) throw new RefFetchRefusedError(refusal);
    try {
      return await fetchRef(url);
    } catch (error) {
      const reason = guard.reasonOf(error);
      throw reason === undefined ? error : new RefFetchRefusedError(reason);
    }
  };
  const fetchText = async (url: string): Promise<{ text: string; url: string }> => {
    const fetched = await fetchGuarded(url);
    return { text: fetched.text, url: fetched.url };
  };
  const loaded = new Map<string, Promise<OpenApiDescription>>();

  const loadRemote = async (url: string, named: 'by-user-document' | 'by-remote-document' = 'by-user-document'): Promise<OpenApiDescription> => {
    // The user's document names this URL, so its $refs to its own origin may reach it wherever it
    // is. A URL named by a fetched document is held to the $ref rules instead: public addresses only.
    if (named === 'by-user-document') guard.trustOrigin(url);
    let fetched: FetchedText;
    try {
      fetched = await (named === 'by-user-document' ? fetch(url) : fetchGuarded(url));
    } catch (error) {
      // The same words loadDescription uses when its own fetch fails.
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
      throw new DescriptionUnavailableError(`${shown(url)}: cannot fetch the description: ${reason}; check the URL and your network`, 'Check the source description url, or point it at a local file.');
    }
    checkFetchedSize(shown(url), fetched.text, policy.maxBytes);
    const source = { bodyHash: fetched.bodyHash };
    const hit = await cache?.parsed.read(url, source);
    if (hit) return hit;
    const description = await loadDescription(url, { baseFile, policy, fetchText: (u) => (u === url ? Promise.resolve({ text: fetched.text, url: fetched.url }) : fetchText(u)) });
    if (cache && hasOnlyLocalRefs(fetched.text)) await cache.parsed.write(url, source, description).catch(() => undefined);
    return description;
  };

  const loadLocal = async (path: string): Promise<OpenApiDescription> => {
    // Read by the rules before the cache is asked (an index cached in an earlier run must not
    // bypass them), and the index is found by the hash of this text: any edit is parsed afresh,
    // also one restored to the same size and mtime (cp -p, rsync -t). One read serves both.
    const text = await readDescription(path, policy);
    const source = { bodyHash: sha256(text) };
    const hit = await cache?.parsed.read(path, source);
    if (hit) return hit;
    const description = await parseDescription(text, path, { fetchText, policy });
    if (cache && hasOnlyLocalRefs(text)) await cache.parsed.write(path, source, description).catch(() => undefined);
    return description;
  };

  const load = (location: string): Promise<OpenApiDescription> => {
    let promise = loaded.get(location);
    if (!promise) {
      promise = (async () => {
        const target = resolveLocation(location.trim(), baseFile);
        return target.remote ? loadRemote(target.location) : loadLocal(target.location);
      })().catch((error: unknown) => {
        if (error instanceof DescriptionError) throw new DescriptionUnavailableError(error.message);
        if (error instanceof TransportError) {
          throw new DescriptionUnavailableError(`could not fetch the OpenAPI description ${location}: ${error.message}`, 'Check the source description url, or point it at a local file.');
        }
        throw error;
      });
      loaded.set(location, promise);
      if (options.retryFailures) {
        const kept = promise;
        kept.catch(() => loaded.get(location) === kept && loaded.delete(location));
      }
    }
    return promise;
  };
  // v2's Arazzo sources: their text, and their own descriptions, by the same rules (source-document-reader.ts).
  const unavailable = (error: unknown): never => {
    throw error instanceof DescriptionError ? new DescriptionUnavailableError(error.message) : error;
  };
  return Object.assign(load, {
    // A document fetched over http(s) names URLs as a remote description's $refs do: fetched through
    // the guarded pipeline (no private address, before or at connect time), and never trusted.
    readDocument: (location: string, base: string, what?: string) =>
      readSourceDocument(location, base, isHttp(base) ? { policy, fetch: fetchGuarded, trustOrigin: () => undefined } : { policy, fetch, trustOrigin: (url) => guard.trustOrigin(url) }, what).catch(unavailable),
    from: (base: string) => async (location: string) => {
      let target: { location: string; remote: boolean };
      try {
        target = sourceTarget(location, base, policy.allowRefHosts);
      } catch (error) {
        return unavailable(error);
      }
      return target.remote && isHttp(base) ? loadRemote(target.location, 'by-remote-document') : load(target.location);
    },
  });
}

/** A description loader (location as the Arazzo document names it), with what v2's Arazzo sources need. */
export interface DescriptionLoader {
  (location: string): Promise<OpenApiDescription>;
  /** The text of the Arazzo document at `location` as the document at `base` names it; rejects with DescriptionUnavailableError. */
  readDocument(location: string, base: string, what?: string): Promise<SourceDocumentText>;
  /** A loader of the descriptions the Arazzo document at `base` names (its relative urls resolve against it); rejects with DescriptionUnavailableError. */
  from(base: string): (location: string) => Promise<OpenApiDescription>;
}

/**
 * What descriptions loaded for `baseFile` may read: files inside its folder or an --tool-allow-read one (anywhere for
 * explicit sources, whose refs stay in their own folder), never tool's config or cache folders,
 * 10 MiB each; remote refs on their description's origin or an allowed host.
 */
export function readDescriptionPolicy(baseFile: string, options: Pick<DescriptionLoaderOptions, 'env' | 'allowRefHosts' | 'explicitSources' | 'allowRead' | 'cwd'>): ReadPolicy {
  return readPolicyFor(baseFile, {
    ...(options.explicitSources === true ? { roots: [], explicitSource: true } : isAbsolute(baseFile) ? { roots: [dirname(baseFile), ...(options.allowRead ?? [])] } : {}),
    denied: options.env === undefined ? [] : toolFolders(options.env),
    allowRefHosts: options.allowRefHosts ?? [],
    ...(options.cwd !== undefined && options.explicitSources !== true ? { allowReadFrom: options.cwd } : {}),
  });
}

/** tool's config and cache folders (credentials, tokens, cached descriptions), or none when HOME is unusable. */
function toolFolders(env: Record<string, string | undefined>): string[] {
  try {
    const paths = configPaths(env);
    return [paths.configDir, paths.cacheDir];
  } catch (error) {
    if (error instanceof ConfigError) return [];
    throw error;
  }
}

function shown(url: string): string {
  return redactUrl(url, secretNames(undefined));
}

function isHttp(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** The flags a run reads a document's descriptions by (RunOptions' own fields). */
export interface DescriptionReadRules {
  allowRefHosts?: string[];
  addressRefHosts?: string[];
  allowRead?: string[];
  timeoutMs: number;
  retry: number;
}

/**
 * The loader of a document's source descriptions as a run reads them: through `pipeline` and the
 * description cache, by the run's read rules (--tool-allow-read folders relative to `cwd`,
 * --tool-allow-ref-host), the document's remote sources trusted for their `$ref`s. `tool mcp serve`
 * reads them the same way to tell what each workflow sends. Throws as createDescriptionLoader does.
 */
export function documentDescriptionLoader(pipeline: Pipeline, doc: LoadedDocument, rules: DescriptionReadRules, where: { env: Record<string, string | undefined>; cwd: string }, warn: (message: string) => void, retryFailures = false): DescriptionLoader {
  return createDescriptionLoader(pipeline, doc.absolutePath, {
    retryFailures,
    env: where.env,
    allowRefHosts: rules.allowRefHosts ?? [],
    ...(rules.addressRefHosts ? { addressRefHosts: rules.addressRefHosts } : {}),
    allowRead: (rules.allowRead ?? []).map((folder) => resolvePath(where.cwd, folder)),
    cwd: where.cwd,
    refPipeline: { timeoutMs: rules.timeoutMs, retry: rules.retry },
    sourceUrls: doc.model.sourceDescriptions.flatMap((source) => (source.url === undefined ? [] : [source.url])),
    warn,
  });
}

/**
 * A run's view of a loader that runs share (retryFailures): a location that failed stays failed for
 * the rest of this run, as with a loader of its own (validation and binding see the same error),
 * while the next run tries it again.
 */
export function withinOneRun(shared: DescriptionLoader): DescriptionLoader {
  const failed = new Map<string, Promise<OpenApiDescription>>();
  const load = (location: string): Promise<OpenApiDescription> => {
    const known = failed.get(location);
    if (known !== undefined) return known;
    const promise = shared(location);
    promise.catch(() => failed.set(location, promise));
    return promise;
  };
  return Object.assign(load, { readDocument: shared.readDocument, from: shared.from });
}
