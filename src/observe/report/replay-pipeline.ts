/**
 * `tool arazzo replay`'s stand-in for the request pipeline: it answers each step's request with
 * the response a `--har` file recorded for it, matched by method, URL and order (the n-th
 * `GET /items/1` gets the n-th recorded one), and sends nothing. A request the recording has no
 * answer for fails its step with a message that names it.
 */
import { openForReading } from '../../arazzo/open-for-reading.js';
import { readBoundedText } from '../../arazzo/read-bounded.js';
import { resolve } from 'node:path';
import type { Pipeline } from '../../http/create-pipeline.js';
import { parseBody } from '../../output/parse-body.js';
import { TransportError } from '../../http/transport-error.js';
import type { HttpResponse } from '../../http/types.js';
import { FileError, ToolError } from '../../errors/tool-error.js';
import { harUrl } from './har-entry.js';

/** A HAR file is read whole and parsed at once: past this size, it is refused (its text alone would be near V8's longest string). */
const MAX_HAR_MIB = 256;
const MAX_HAR_BYTES = MAX_HAR_MIB * 1024 * 1024;

/** What a replay reads of one HAR entry. */
export interface RecordedExchange {
  method: string;
  url: string;
  status: number;
  headers: Array<{ name: string; value: string }>;
  text?: string;
  base64: boolean;
  time: number;
  retries: number;
  finalUrl?: string;
  /** Why no response arrived (status 0). */
  error?: string;
}

/** Thrown when the `--from` file is not a HAR file replay can read; the message names the file and where. */
export class HarInvalidError extends ToolError {
  constructor(message: string, hint?: string) {
    super('HAR_INVALID', message, hint);
    this.name = 'HarInvalidError';
  }
}

/**
 * Reads the HAR file at `path` (relative to `cwd`) into a pipeline that answers from it;
 * `secrets` are the run's --input-env values, masked in request URLs as the recording masked them.
 * Throws FileError when the file cannot be read, HarInvalidError when it is not a HAR file (both exit 2).
 */
export async function loadReplayPipeline(path: string, cwd: string, secrets: readonly string[]): Promise<Pipeline> {
  const full = resolve(cwd, path);
  const refuse = (why: string) => new FileError(`cannot read the --from file ${path}: ${why}`, 'Give --from the HAR file that tool arazzo run --har wrote.');
  const tooLarge = () => refuse(`it is larger than ${MAX_HAR_MIB} MiB, the most replay reads`);
  let text: string;
  try {
    const { handle, info, kind } = await openForReading(full);
    try {
      if (kind === 'directory') throw refuse('it is a folder');
      // A FIFO would wait for a writer and a device (/dev/zero) never end: only a regular file is read.
      if (kind === 'special') throw refuse('not a regular file (a FIFO, a device or a socket)');
      if (info.size > MAX_HAR_BYTES) throw tooLarge();
      // Bounded as it is read too: a file that grows after the check stops at the limit.
      text = await readBoundedText(handle, info.size, MAX_HAR_BYTES, tooLarge);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof FileError) throw error;
    throw refuse((error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
  return replayPipeline(parseHar(text, path), path, secrets);
}

/** A pipeline answering from `recorded`, in order per method and URL. */
export function replayPipeline(recorded: readonly RecordedExchange[], source: string, secrets: readonly string[]): Pipeline {
  const queues = new Map<string, RecordedExchange[]>();
  const total = new Map<string, number>();
  for (const exchange of recorded) {
    const key = `${exchange.method} ${exchange.url}`;
    queues.set(key, [...(queues.get(key) ?? []), exchange]);
    total.set(key, (total.get(key) ?? 0) + 1);
  }
  return {
    async send(req, opts) {
      const url = harUrl(req, secrets);
      if (opts?.signal?.aborted) throw new TransportError('ABORTED', 'aborted', { method: req.method, url });
      const key = `${req.method} ${url}`;
      const next = queues.get(key)?.shift();
      if (next === undefined) {
        const had = total.get(key) ?? 0;
        const why = had === 0 ? 'it recorded no such request' : `its ${had} recorded ${had === 1 ? 'response was' : 'responses were'} used by earlier requests`;
        throw new ToolError('REPLAY_NO_MATCH', `no recorded response for ${req.method} ${url} in ${source}: ${why}`, 'the run took another path than the recorded one; record it again with tool arazzo run --har');
      }
      if (next.status === 0) {
        const error = new TransportError('TRANSPORT_ERROR', 'no response was recorded', { method: req.method, url });
        if (next.error !== undefined) error.message = next.error;
        error.retries = next.retries;
        throw error;
      }
      return responseOf(next, req.url, req.headers);
    },
    close() {},
  };
}

function responseOf(recorded: RecordedExchange, requestUrl: string, requestHeaders: Record<string, string>): HttpResponse {
  const headers: Record<string, string | string[]> = {};
  for (const { name, value } of recorded.headers) {
    const lower = name.toLowerCase();
    const before = headers[lower];
    if (lower === 'set-cookie') headers[lower] = [...(Array.isArray(before) ? before : before === undefined ? [] : [before]), value];
    else headers[lower] = before === undefined ? value : `${String(before)}, ${value}`;
  }
  const bytes = recorded.text === undefined ? Buffer.alloc(0) : Buffer.from(recorded.text, recorded.base64 ? 'base64' : 'utf8');
  const type = headers['content-type'];
  const sent: Record<string, string> = {};
  for (const name in requestHeaders) sent[name.toLowerCase()] = requestHeaders[name]!;
  return {
    status: recorded.status,
    headers,
    body: parseBody(Array.isArray(type) ? type[0] : type, bytes),
    bytes,
    url: recorded.finalUrl ?? requestUrl,
    durationMs: recorded.time,
    retries: recorded.retries,
    requestHeaders: sent,
  };
}

/** The exchanges of a HAR file's text. Throws HarInvalidError naming the file and the JSON pointer (or line and column) of the problem. */
export function parseHar(text: string, source: string): RecordedExchange[] {
  let har: unknown;
  try {
    har = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message);
    const where = at ? `:${lineCol(text, Number(at[1]))}` : '';
    throw new HarInvalidError(`${source}${where}: not valid JSON`, 'Give --from the HAR file that tool arazzo run --har wrote.');
  }
  const bad = (pointer: string, what: string): never => {
    throw new HarInvalidError(`${source}: ${pointer}: ${what}`, 'Give --from a HAR 1.2 file, such as the one tool arazzo run --har writes.');
  };
  const entries = (har as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) return bad('/log/entries', 'expected the array of entries of a HAR file');
  return entries.map((entry: unknown, i): RecordedExchange => {
    const at = `/log/entries/${i}`;
    const e = (entry ?? {}) as Record<string, unknown>;
    const request = (e.request ?? bad(`${at}/request`, 'missing')) as Record<string, unknown>;
    const response = (e.response ?? bad(`${at}/response`, 'missing')) as Record<string, unknown>;
    const method = typeof request.method === 'string' ? request.method.toUpperCase() : bad(`${at}/request/method`, 'expected a string');
    const url = typeof request.url === 'string' ? request.url : bad(`${at}/request/url`, 'expected a string');
    const status = Number.isInteger(response.status) ? (response.status as number) : bad(`${at}/response/status`, 'expected a whole number');
    const headers = response.headers === undefined ? [] : Array.isArray(response.headers) ? response.headers : bad(`${at}/response/headers`, 'expected an array');
    const content = (response.content ?? {}) as Record<string, unknown>;
    if (content.text !== undefined && typeof content.text !== 'string') bad(`${at}/response/content/text`, 'expected a string');
    const recorded: RecordedExchange = {
      method,
      url,
      status,
      headers: headers.map((header: unknown, h: number) => {
        const { name, value } = (header ?? {}) as { name?: unknown; value?: unknown };
        if (typeof name !== 'string' || typeof value !== 'string') return bad(`${at}/response/headers/${h}`, 'expected {"name": …, "value": …} strings');
        return { name, value };
      }),
      base64: content.encoding === 'base64',
      time: typeof e.time === 'number' ? e.time : 0,
      retries: typeof e._transportRetries === 'number' ? e._transportRetries : 0,
    };
    if (typeof content.text === 'string') recorded.text = content.text;
    if (typeof e._finalUrl === 'string') recorded.finalUrl = e._finalUrl;
    if (typeof response._error === 'string') recorded.error = response._error;
    return recorded;
  });
}

function lineCol(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}
