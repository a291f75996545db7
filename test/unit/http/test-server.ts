/** A real node:http server on 127.0.0.1:0 that records what reached it. */

import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from '@jest/globals';
import { createPipeline, type Pipeline } from '../../../src/http/create-pipeline.js';
import type { PipelineOptions } from '../../../src/http/types.js';

export interface Hit {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  hits: Hit[];
  close(): Promise<void>;
}

export type Handler = (hit: Hit, res: ServerResponse, hitNumber: number) => void;

/** Starts a server that reads each request body in full before calling `handler`. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hit = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      hits.push(hit);
      handler(hit, res, hits.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port that was just listening and is now closed, so connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = await startServer(() => undefined);
  await server.close();
  return server.port;
}

/** Sends a JSON body with the given status. */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

/**
 * Pipelines and servers for the tests of one describe block, each closed after its test.
 * `defaults` are the pipeline options every test of the block starts from.
 */
export function usePipelineFixtures(defaults: Partial<PipelineOptions> = {}) {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return {
    pipeline(options: Partial<PipelineOptions> = {}): Pipeline {
      const created = createPipeline({ ...defaults, ...options });
      cleanups.push(() => created.close());
      return created;
    },
    async server(handler: Handler): Promise<TestServer> {
      const started = await startServer(handler);
      cleanups.push(() => started.close());
      return started;
    },
  };
}
