/**
 * Registry headers and the auth chain's credentials stay on the bound API's origin: a redirect to
 * another origin sheds them, for direct calls and workflow steps alike; a same-origin redirect keeps them.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { sendJson, startServer, type Hit, type TestServer } from '../unit/http/test-server.js';
import { tempHome, tool, type Home } from './auth-harness.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/run/', import.meta.url));
const REGISTRY_TOKEN = 'reg-Secret-7c1d';
const KEY = 'key-Secret-8e2f';

/** Login flags per scheme, and where its secret must not turn up on the other origin. */
const SCHEMES: Array<[string, string[], (hit: Hit) => string | undefined]> = [
  ['bearer', ['--type', 'bearer', '--with-token'], (hit) => hit.headers.authorization],
  ['an api key in a header', ['--type', 'api-key', '--key-name', 'X-Key', '--with-token'], (hit) => hit.headers['x-key'] as string | undefined],
  ['an api key in the query', ['--type', 'api-key', '--key-name', 'key', '--in', 'query', '--with-token'], (hit) => new URL(hit.url, 'http://x').searchParams.get('key') ?? undefined],
  ['an api key in a cookie', ['--type', 'api-key', '--key-name', 'sid', '--in', 'cookie', '--with-token'], (hit) => hit.headers.cookie],
];

/** Both ways a request reaches the pipeline with the API's auth chain. */
const CALLS: Array<[string, string[]]> = [
  ['a direct call', ['get', 'secure/moved']],
  ['a workflow step', ['arazzo', 'run', 'binding-redirect.arazzo.yaml']],
];

describe('redirects and the API auth chain', () => {
  let home: Home;
  let api: TestServer;
  let elsewhere: TestServer;
  beforeEach(async () => {
    home = await tempHome();
    elsewhere = await startServer((hit, res) => sendJson(res, 200, { landed: hit.url }));
  });
  afterEach(async () => {
    await api.close();
    await elsewhere.close();
    await home.remove();
  });

  /** The API redirects /v1/moved to `target(query)`, the query string passed on as servers often do. */
  const setUp = async (flags: string[], target: (search: string) => string) => {
    api = await startServer((hit, res) => {
      const url = new URL(hit.url, 'http://x');
      if (url.pathname !== '/v1/moved') return sendJson(res, 200, { landed: hit.url });
      res.writeHead(302, { location: target(url.search) });
      res.end();
    });
    const run = (argv: string[], stdin?: string) => tool(argv, { env: home.env, cwd: FIXTURES, ...(stdin === undefined ? {} : { stdin }) });
    expect((await run(['api', 'add', 'secure', `${api.origin}/v1`, '--header', `PRIVATE-TOKEN: ${REGISTRY_TOKEN}`])).code).toBe(0);
    expect((await run(['auth', 'login', 'secure', ...flags], KEY)).code).toBe(0);
    return run;
  };

  for (const [call, argv] of CALLS) {
    it.each(SCHEMES)(`${call}: a cross-origin redirect gets neither the registry header nor %s`, async (_scheme, flags, secretOf) => {
      const run = await setUp(flags, (search) => `${elsewhere.origin}/landing${search}`);
      const result = await run(argv);
      expect(result.stderr).not.toContain('error');
      expect(result.code).toBe(0);
      expect(api.hits[0]?.headers['private-token']).toBe(REGISTRY_TOKEN);
      expect(secretOf(api.hits[0]!)).toContain(KEY);
      expect(elsewhere.hits).toHaveLength(1);
      const landed = elsewhere.hits[0]!;
      expect(landed.headers['private-token']).toBeUndefined();
      expect(secretOf(landed)).toBeUndefined();
      expect(JSON.stringify([landed.url, landed.headers])).not.toMatch(new RegExp(`${KEY}|${REGISTRY_TOKEN}`));
    });

    it.each(SCHEMES)(`${call}: a same-origin redirect keeps the registry header and %s`, async (_scheme, flags, secretOf) => {
      const run = await setUp(flags, (search) => `/v1/landing${search}`);
      const result = await run(argv);
      expect(result.code).toBe(0);
      expect(api.hits).toHaveLength(2);
      const landed = api.hits[1]!;
      expect(new URL(landed.url, 'http://x').pathname).toBe('/v1/landing');
      expect(landed.headers['private-token']).toBe(REGISTRY_TOKEN);
      expect(secretOf(landed)).toContain(KEY);
    });
  }
});
