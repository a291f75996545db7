/**
 * `tool mcp serve`: reads the documents into a catalogue, then serves it over stdio (one client,
 * the process that spawned tool) or Streamable HTTP (`--http`, bearer token), until the client
 * goes away or a signal stops it. Logs on stderr only: on stdio, stdout is the protocol.
 */
import { randomBytes } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parseSeconds } from '../input-flags.js';
import { CommandUsageError } from '../../errors/tool-error.js';
import type { ToolContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { collectDocuments } from '../suite/collect-documents.js';
import { readCatalogue, type CatalogueFlags } from './catalogue.js';
import { parseHttpAddress, type HttpAddress } from './http-address.js';
import { createLog, type LogLevel } from './log.js';
import { createMcpServer, type ServerDeps } from './mcp-server.js';

export interface ServeOptions extends CatalogueFlags {
  files: readonly string[];
  /** --http [host:]port: Streamable HTTP instead of stdio. */
  http: string | undefined;
  httpHost: string | undefined;
  logLevel: LogLevel;
}

/** The least characters a TOOL_MCP_TOKEN has. */
const MIN_TOKEN_CHARS = 32;

/** Serves until the client leaves (stdio: stdin ends) or a signal; returns the exit code. Throws ToolError for usage errors, before anything is served. */
export async function serveMcp(options: ServeOptions, context: ToolContext): Promise<number> {
  const address = options.http !== undefined ? parseHttpAddress(options.http, options.httpHost) : undefined;
  if (address === undefined && options.httpHost !== undefined) throw new CommandUsageError('--http-host needs --http', 'Give the port too: --http 8765 --http-host 0.0.0.0.');
  const token = address ? bearerToken(context.env) : undefined;
  const secrets = new Set<string>();
  const log = createLog(context.stderr, options.logLevel, secrets);
  const started = Date.now();
  const files = await collectDocuments(options.files, context.cwd);
  const catalogue = await readCatalogue(files, options, context, log);
  for (const value of catalogue.tools.flatMap((tool) => tool.options.secretInputs ?? [])) secrets.add(value);
  log.info(`${catalogue.tools.length} tool${catalogue.tools.length === 1 ? '' : 's'} from ${catalogue.documents.length} document${catalogue.documents.length === 1 ? '' : 's'} (read in ${Date.now() - started} ms): ${catalogue.tools.map((tool) => tool.name).join(', ') || 'none'}`);
  if (catalogue.tools.length === 0) log.warn('no workflow is listed as a tool (the log above says why)');
  const deps: ServerDeps = { context, log, secrets, cwd: context.cwd, env: context.env, runner: options.shared.runner };
  const stopped = new Promise<void>((resolve) => {
    if (context.signal.aborted) resolve();
    context.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  if (address && token) return serveOverHttp(address, token, () => createMcpServer(catalogue, deps), context, deps, stopped);

  const server = createMcpServer(catalogue, deps);
  const ended = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    context.stdin.once('end', () => resolve());
    context.stdin.once('close', () => resolve());
  });
  await server.connect(new StdioServerTransport(context.stdin, context.stdout));
  log.info('serving on stdio');
  await Promise.race([ended, stopped]);
  await server.close().catch(() => undefined);
  return context.signal.aborted ? EXIT.INTERRUPTED : EXIT.OK;
}

async function serveOverHttp(address: HttpAddress, token: string, serverFor: () => ReturnType<typeof createMcpServer>, context: ToolContext, deps: ServerDeps, stopped: Promise<void>): Promise<number> {
  const { serveHttp, SESSION_IDLE_MS } = await import('./http-transport.js');
  const idle = context.env.TOOL_MCP_SESSION_IDLE;
  const idleMs = idle === undefined || idle === '' ? SESSION_IDLE_MS : parseSeconds('TOOL_MCP_SESSION_IDLE', idle, 7 * 24 * 3600);
  let serving;
  try {
    serving = await serveHttp(address, token, serverFor, deps.log, idleMs);
  } catch (error) {
    throw new CommandUsageError(`cannot listen on ${address.host}:${address.port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'Choose another port (0 for any free one).');
  }
  // Printed whatever --log-level says: the client needs both. A token the user set is theirs already, and a secret: never printed.
  const shown = context.env.TOOL_MCP_TOKEN ? 'the value of TOOL_MCP_TOKEN' : token;
  context.stderr.write(`tool mcp: listening on ${serving.url}\ntool mcp: bearer token: ${shown}\n`);
  await stopped;
  await serving.close();
  return EXIT.INTERRUPTED;
}

/** TOOL_MCP_TOKEN when set (at least 32 characters), else 32 random bytes, base64url. Throws CommandUsageError for a short one. */
function bearerToken(env: Record<string, string | undefined>): string {
  const given = env.TOOL_MCP_TOKEN;
  if (given === undefined || given === '') return randomBytes(32).toString('base64url');
  if (given.length < MIN_TOKEN_CHARS || /\s/.test(given)) throw new CommandUsageError(`TOOL_MCP_TOKEN must be at least ${MIN_TOKEN_CHARS} characters without spaces`, 'Unset it for a random token, or set a longer one (openssl rand -base64 32).');
  return given;
}
