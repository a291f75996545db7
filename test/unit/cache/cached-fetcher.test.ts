/**
 * The description cache's fetcher against a real 127.0.0.1 server: fresh copies are used without a
 * request, stale ones are revalidated, and a cached copy stands in for an unreachable server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bodyStore } from '../../../src/cache/body-store.js';
import { cachedFetcher, DescriptionFetchError } from '../../../src/cache/fetch-description.js';
import { createPipeline } from '../../../src/http/create-pipeline.js';
import { TransportError } from '../../../src/http/transport-error.js';
import { closedPort, startServer, type Hit, type TestServer } from '../http/test-server.js';

const TTL = 600_000;
const pipeline = createPipeline({ retry: 0, timeoutMs: 5000 });
let server: TestServer;
let reply: (hit: Hit, res: ServerResponse) => void;
let dir: string;

beforeAll(async () => {
  server = await startServer((hit, res) => reply(hit, res));
});
afterAll(async () => {
  pipeline.close();
  await server.close();
});
afterEach(async () => {
  server.hits.length = 0;
  await rm(dir, { recursive: true, force: true });
});

/** A fetcher over a fresh cache folder, with a clock the test moves. */
async function setUp() {
  dir = await mkdtemp(join(tmpdir(), 'tool-cache-'));
  const clock = { now: 1_000_000 };
  const warnings: string[] = [];
  const fetch = cachedFetcher({ pipeline, store: bodyStore(dir), ttlMs: TTL, now: () => clock.now, warn: (m) => warnings.push(m) });
  return { fetch, clock, warnings };
}

const spec = (version: string) => `openapi: 3.0.3\ninfo: { title: t, version: '${version}' }\npaths: {}\n`;

function serve(body: string, headers: Record<string, string>): (hit: Hit, res: ServerResponse) => void {
  return (hit, res) => {
    const etag = headers.etag;
    if (etag !== undefined && hit.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/yaml', ...headers });
    res.end(body);
  };
}

describe('cachedFetcher', () => {
  it('fetches once and serves a copy younger than the TTL without a request', async () => {
    const { fetch, clock } = await setUp();
    reply = serve(spec('1'), { etag: '"v1"' });
    const url = `${server.origin}/api.yaml`;
    const first = await fetch(url);
    clock.now += TTL - 1;
    const second = await fetch(url);
    expect(second).toEqual(first);
    expect(second.text).toBe(spec('1'));
    expect(server.hits).toHaveLength(1);
  });

  it('revalidates a copy older than the TTL with If-None-Match and reuses it on 304, counting its age from then', async () => {
    const { fetch, clock } = await setUp();
    reply = serve(spec('1'), { etag: '"v1"' });
    const url = `${server.origin}/api.yaml`;
    await fetch(url);
    clock.now += TTL;
    expect((await fetch(url)).text).toBe(spec('1'));
    expect(server.hits.map((hit) => hit.headers['if-none-match'])).toEqual([undefined, '"v1"']);
    clock.now += TTL - 1;
    await fetch(url);
    expect(server.hits).toHaveLength(2);
  });

  it('revalidates with If-Modified-Since when the server sent only Last-Modified', async () => {
    const { fetch, clock } = await setUp();
    const lastModified = 'Wed, 21 Oct 2015 07:28:00 GMT';
    reply = (hit, res) => {
      if (hit.headers['if-modified-since'] === lastModified) {
        res.writeHead(304);
        res.end();
      } else serve(spec('1'), { 'last-modified': lastModified })(hit, res);
    };
    const url = `${server.origin}/api.yaml`;
    await fetch(url);
    clock.now += TTL;
    expect((await fetch(url)).text).toBe(spec('1'));
    expect(server.hits.map((hit) => [hit.headers['if-modified-since'], hit.headers['if-none-match']])).toEqual([
      [undefined, undefined],
      [lastModified, undefined],
    ]);
  });

  it('replaces the copy when the revalidation brings a new body, and keeps one body file per URL', async () => {
    const { fetch, clock } = await setUp();
    const url = `${server.origin}/api.yaml`;
    reply = serve(spec('1'), { etag: '"v1"' });
    const first = await fetch(url);
    clock.now += TTL;
    reply = serve(spec('2'), { etag: '"v2"' });
    const second = await fetch(url);
    expect(second.text).toBe(spec('2'));
    expect(second.bodyHash).not.toBe(first.bodyHash);
    expect((await readdir(dir)).filter((name) => name.endsWith('.body'))).toHaveLength(1);
  });

  it('uses the cached copy with a warning naming the URL and its age when the server cannot be reached', async () => {
    const { fetch, clock, warnings } = await setUp();
    const doomed = await startServer((hit, res) => serve(spec('1'), { etag: '"v1"' })(hit, res));
    const url = `${doomed.origin}/api.yaml`;
    await fetch(url);
    await doomed.close();
    clock.now += 3 * 3600_000;
    expect((await fetch(url)).text).toBe(spec('1'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^${url.replace(/[.]/g, '\\.')}: the server could not be reached \\(connection refused: GET .*\\); using the copy cached 3 h ago$`));
  });

  it('fails with the transport error when the server cannot be reached and nothing is cached', async () => {
    const { fetch, warnings } = await setUp();
    await expect(fetch(`http://127.0.0.1:${await closedPort()}/api.yaml`)).rejects.toBeInstanceOf(TransportError);
    expect(warnings).toEqual([]);
  });

  it('uses the cached copy with a warning when the server answers 5xx, and fails on 4xx', async () => {
    const { fetch, clock, warnings } = await setUp();
    const url = `${server.origin}/api.yaml`;
    reply = serve(spec('1'), { etag: '"v1"' });
    await fetch(url);
    clock.now += TTL + 5000;
    reply = (_hit, res) => {
      res.writeHead(503);
      res.end();
    };
    expect((await fetch(url)).text).toBe(spec('1'));
    expect(warnings).toEqual([`${url}: the server answered HTTP 503; using the copy cached 10 min ago`]);
    reply = (_hit, res) => {
      res.writeHead(404);
      res.end();
    };
    await expect(fetch(url)).rejects.toBeInstanceOf(DescriptionFetchError);
  });

  it('fails with the HTTP status when there is no copy to fall back on', async () => {
    const { fetch } = await setUp();
    reply = (_hit, res) => {
      res.writeHead(500);
      res.end();
    };
    await expect(fetch(`${server.origin}/api.yaml`)).rejects.toThrow(`HTTP 500 for ${server.origin}/api.yaml`);
  });

  it('keeps the exact text of a JSON description', async () => {
    const { fetch } = await setUp();
    const text = '{ "openapi": "3.1.0",\n  "info": { "title": "t", "version": "1" }, "x-big": 12345678901234567890 }';
    reply = (_hit, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text);
    };
    expect((await fetch(`${server.origin}/api.json`)).text).toBe(text);
  });
});
