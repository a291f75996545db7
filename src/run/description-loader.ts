import { readFile, stat } from 'node:fs/promises';
import { openDescriptionCache, type DescriptionCache } from '../cache/description-cache.js';
import { cachedFetcher, DescriptionFetchError, type FetchedText } from '../cache/fetch-description.js';
import { hasOnlyLocalRefs } from '../cache/local-refs.js';
import { EXIT, ToolError } from '../cli/errors.js';
import { TransportError, type Pipeline } from '../http/index.js';
import { redactUrl, secretNames } from '../http/redact.js';
import { DescriptionError, loadDescription, type OpenApiDescription } from '../openapi/index.js';
import { resolveLocation } from '../openapi/load-description.js';

export { DescriptionFetchError };

/** Thrown when a source description cannot be read, fetched or parsed (exit 2: the run never started). */
export class DescriptionUnavailableError extends ToolError {
  constructor(message: string, hint?: string) {
    super('DESCRIPTION_UNAVAILABLE', message, EXIT.USAGE, hint);
    this.name = 'DescriptionUnavailableError';
  }
}

export interface DescriptionLoaderOptions {
  /** Where the cache lives (XDG_CACHE_HOME, HOME) and TOOL_CACHE_TTL. Without it or `cache`, nothing is cached. */
  env?: Record<string, string | undefined>;
  /** A cache to use instead of the one `env` names (tests bring their own clock). */
  cache?: DescriptionCache;
  /** Receives warnings, such as a cached copy standing in for an unreachable server. */
  warn?: (message: string) => void;
}

/**
 * A loader of OpenAPI descriptions for one Arazzo document: locations resolve against the
 * document, http(s) URLs are fetched through the request pipeline and the description cache, and
 * each location is loaded once. The loader rejects with DescriptionUnavailableError (exit 2).
 * Throws CacheError at once for a bad TOOL_CACHE_TTL.
 */
export function createDescriptionLoader(pipeline: Pipeline, baseFile: string, options: DescriptionLoaderOptions = {}): (location: string) => Promise<OpenApiDescription> {
  const cache = options.cache ?? (options.env === undefined ? undefined : openDescriptionCache(options.env));
  const fetch = cachedFetcher({
    pipeline,
    ...(cache ? { store: cache.bodies } : {}),
    ttlMs: cache?.ttlMs ?? 0,
    now: cache?.now ?? Date.now,
    warn: options.warn ?? (() => undefined),
  });
  const fetchText = async (url: string): Promise<string> => (await fetch(url)).text;
  const loaded = new Map<string, Promise<OpenApiDescription>>();

  const loadRemote = async (url: string): Promise<OpenApiDescription> => {
    let fetched: FetchedText;
    try {
      fetched = await fetch(url);
    } catch (error) {
      // The same words loadDescription uses when its own fetch fails.
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
      throw new DescriptionUnavailableError(`${shown(url)}: cannot fetch the description: ${reason}; check the URL and your network`, 'Check the source description url, or point it at a local file.');
    }
    const source = { bodyHash: fetched.bodyHash };
    const hit = await cache?.parsed.read(url, source);
    if (hit) return hit;
    const description = await loadDescription(url, { baseFile, fetchText: (u) => (u === url ? Promise.resolve(fetched.text) : fetchText(u)) });
    if (cache && hasOnlyLocalRefs(fetched.text)) await cache.parsed.write(url, source, description).catch(() => undefined);
    return description;
  };

  const loadLocal = async (path: string): Promise<OpenApiDescription> => {
    const before = cache ? await fileStamp(path) : undefined;
    const hit = before ? await cache?.parsed.read(path, before) : undefined;
    if (hit) return hit;
    const description = await loadDescription(path, { baseFile, fetchText });
    if (cache && before) await rememberLocal(cache, path, before, description);
    return description;
  };

  return (location) => {
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
    }
    return promise;
  };
}

type FileStamp = { mtimeMs: number; size: number };

async function fileStamp(path: string): Promise<FileStamp | undefined> {
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() ? { mtimeMs: info.mtimeMs, size: info.size } : undefined;
}

/** Stores a local file's index unless the file changed while it was parsed or refers to other files. */
async function rememberLocal(cache: DescriptionCache, path: string, before: FileStamp, description: OpenApiDescription): Promise<void> {
  try {
    const text = await readFile(path, 'utf8');
    const after = await fileStamp(path);
    if (after?.mtimeMs !== before.mtimeMs || after.size !== before.size || !hasOnlyLocalRefs(text)) return;
    await cache.parsed.write(path, before, description);
  } catch {
    // Best effort: the description was loaded; only the next run's shortcut is lost.
  }
}

function shown(url: string): string {
  return redactUrl(url, secretNames(undefined));
}
