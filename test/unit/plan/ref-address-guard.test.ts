/**
 * The guard on description `$ref` fetches: the check before a fetch, and the check of every
 * address a connection really uses (a name that resolves elsewhere the second time, a redirect).
 */
import { describe, expect, it } from '@jest/globals';
import type { LookupFunction } from 'node:net';
import { createRefAddressGuard } from '../../../src/plan/ref-address-guard.js';
import { usePipelineFixtures } from '../http/test-server.js';

/** A resolver answering from `answers` (one list per call for a name; the last one repeats), and counting calls. */
function fakeLookup(answers: Record<string, string[][]>): { lookup: LookupFunction; calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (error: Error | null, address: unknown, family?: number) => void) => {
    calls.push(hostname);
    const list = answers[hostname];
    const addresses = list?.[Math.min(calls.filter((name) => name === hostname).length, list.length) - 1];
    if (addresses === undefined) return process.nextTick(() => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), undefined));
    const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    process.nextTick(() => (options.all ? callback(null, entries) : callback(null, entries[0]!.address, entries[0]!.family)));
  }) as unknown as LookupFunction;
  return { lookup, calls };
}

const fixtures = usePipelineFixtures({ retry: 0 });

describe('the check before a fetch', () => {
  it('refuses a name that resolves to a private address, naming the address and the flag', async () => {
    const { lookup } = fakeLookup({ 'intranet.test': [['93.184.216.34', '10.0.0.5']] });
    const guard = createRefAddressGuard([], lookup);
    expect(await guard.refusal('https://intranet.test/schemas.yaml')).toBe(
      "intranet.test resolves to 10.0.0.5, a private address, and a description's $refs may only reach public addresses; pass --tool-allow-ref-host intranet.test if you trust it",
    );
  });

  it('lets through a public name, an allowed host (with or without its port) and a trusted origin, without resolving the allowed ones', async () => {
    const { lookup, calls } = fakeLookup({ 'public.test': [['93.184.216.34']] });
    const guard = createRefAddressGuard(['intranet.test', '127.0.0.1:8080'], lookup);
    guard.trustOrigin('http://localhost:9000/api.yaml');
    expect(await guard.refusal('https://public.test/a.yaml')).toBeUndefined();
    expect(await guard.refusal('https://intranet.test/a.yaml')).toBeUndefined();
    expect(await guard.refusal('http://127.0.0.1:8080/a.yaml')).toBeUndefined();
    expect(await guard.refusal('http://localhost:9000/common.yaml')).toBeUndefined();
    expect(calls).toEqual(['public.test']);
    expect(await guard.refusal('http://127.0.0.1:8081/a.yaml')).toContain('127.0.0.1 is a loopback address');
    expect(await guard.refusal('http://localhost:9001/a.yaml')).toContain('localhost names this machine');
    expect(await guard.refusal('http://[::ffff:169.254.169.254]/latest')).toContain('[::ffff:a9fe:a9fe] is a link-local address');
  });
});

describe('the check at connection time', () => {
  it('refuses a name that resolved to a public address first and to 127.0.0.1 when connecting (DNS rebinding); nothing reaches the server', async () => {
    const server = await fixtures.server((_hit, res) => res.end('Limit: {name: limit, in: query}\n'));
    const { lookup } = fakeLookup({ 'rebind.test': [['93.184.216.34'], ['127.0.0.1']] });
    const guard = createRefAddressGuard([], lookup);
    const url = `http://rebind.test:${server.port}/common.yaml`;
    expect(await guard.refusal(url)).toBeUndefined();
    const pipeline = fixtures.pipeline({ agents: guard.agents });
    const error = await pipeline.send({ method: 'GET', url, headers: {} }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(guard.reasonOf(error)).toBe(
      `rebind.test resolves to 127.0.0.1, a loopback address, and a description's $refs may only reach public addresses; pass --tool-allow-ref-host rebind.test if you trust it`,
    );
    expect(server.hits).toHaveLength(0);
  });

  it('refuses a redirect from an allowed host to one that is not allowed; the second server gets nothing', async () => {
    const target = await fixtures.server((_hit, res) => res.end('secret'));
    const start = await fixtures.server((_hit, res) => res.writeHead(302, { location: `http://127.0.0.1:${target.port}/latest/meta-data` }).end());
    const guard = createRefAddressGuard([`127.0.0.1:${start.port}`]);
    const pipeline = fixtures.pipeline({ agents: guard.agents });
    const error = await pipeline.send({ method: 'GET', url: `${start.origin}/common.yaml`, headers: {} }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(guard.reasonOf(error)).toContain('127.0.0.1 is a loopback address');
    expect(start.hits).toHaveLength(1);
    expect(target.hits).toHaveLength(0);
  });

  it('connects to an allowed host as usual', async () => {
    const server = await fixtures.server((_hit, res) => res.end('ok'));
    const guard = createRefAddressGuard(['127.0.0.1']);
    const response = await fixtures.pipeline({ agents: guard.agents }).send({ method: 'GET', url: `${server.origin}/x`, headers: {} });
    expect(response.status).toBe(200);
    expect(guard.reasonOf(new Error('other'))).toBeUndefined();
  });
});
